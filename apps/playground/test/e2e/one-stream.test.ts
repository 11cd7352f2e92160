/// <reference lib="dom" />
// Issue #17: agents report on the one event stream, so the playground shows every agent's model calls
// (a team's workers included) and serves an agent as it is (an option it never heard of still works).
import { ChatModelAgent, type ChatModelAgentOptions } from '@weft/adk';
import { ScriptedChatModel } from '@weft/adk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { defineApp } from '../../src/server/define-app.ts';
import { type DemoSession, E2E_WAIT, hasChromium, openDemo, openGraph, runWith } from './browser.ts';

let s: DemoSession | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

/**
 * An agent with an option the playground has never heard of (`signature`): it is served as it is, so
 * the option reaches the model without the playground knowing about it.
 */
class SigningAgent extends ChatModelAgent {
  constructor(options: ChatModelAgentOptions & { readonly signature: string }) {
    const { signature, ...rest } = options;
    super({ ...rest, instruction: `Sign every answer with "${signature}".` });
  }
}

describe.skipIf(!hasChromium)('playground in Chromium: agents on the one event stream', () => {
  it("shows the model calls of a supervisor team's workers in the inspector", async () => {
    s = await openDemo();
    const { page } = s;
    await page.click('[data-graph=supervisor]');
    await page.click('[data-testid=new-thread]');
    await runWith(page, { message: 'Tell me about graphs' });
    await page.waitForSelector('[data-testid=run-status]:text("done")', { timeout: E2E_WAIT });
    await page.click('[data-testid=view-trace]');
    const model = page.locator('[data-testid=span][data-kind=model]');
    await expect.poll(() => model.count(), { timeout: E2E_WAIT }).toBe(6);
    const labels = await model.allTextContents();
    for (const worker of ['researcher', 'writer'])
      expect(labels.some((label) => label.includes(`${worker} › model`))).toBe(true);
    await model.filter({ hasText: 'writer › model' }).first().click();
    await page.waitForSelector('[data-testid=model-call-detail]');
    expect(await page.textContent('[data-testid=model-call-detail]')).toMatch(
      /Request messages \(\d+\).*Response/s,
    );
    await s.shot('38-team-worker-model-call');
  });

  it('an agent option added here (unknown to the playground) shows up in the model call', async () => {
    const agent = new SigningAgent({
      name: 'signer',
      model: new ScriptedChatModel(['Hello. — Weft']),
      signature: 'Weft',
    });
    s = await openDemo(defineApp({ agents: { signer: agent } }));
    const { page } = s;
    await openGraph(page, 'signer', 'model');
    await page.click('[data-testid=new-thread]');
    await runWith(page, { message: 'Say hello' });
    await page.waitForSelector('[data-testid=run-status]:text("done")', { timeout: E2E_WAIT });
    await page.click('[data-testid=view-trace]');
    const model = page.locator('[data-testid=span][data-kind=model]');
    await expect.poll(() => model.count(), { timeout: E2E_WAIT }).toBe(1);
    await model.first().click();
    await page.waitForSelector('[data-testid=model-call-detail]');
    expect(await page.textContent('[data-testid=model-call-detail]')).toContain(
      'Sign every answer with "Weft".',
    );
  });
});
