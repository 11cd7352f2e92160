/// <reference lib="dom" />
// Issue #38 (5): a turn that fails shows its error in the conversation, where the reply would have
// been; before, the chat showed neither reply nor error (the scaffold's scripted model, out of answers
// on the second message, was the case found).
import { ChatModelAgent } from '@weft/adk';
import { ScriptedChatModel } from '@weft/adk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineApp } from '../../src/server/define-app.ts';
import { type DemoSession, E2E_WAIT, hasChromium, openDemo, runWith } from './browser.ts';

let s: DemoSession;

describe.skipIf(!hasChromium)('playground in Chromium: a failed turn in the conversation', () => {
  beforeAll(async () => {
    // One answer scripted: the second message finds the script exhausted.
    const agent = new ChatModelAgent({ name: 'one-answer', model: new ScriptedChatModel(['Hello!']) });
    s = await openDemo(defineApp({ agents: [agent] }));
  });
  afterAll(async () => {
    await s?.close();
  });

  it('shows the reply of the first turn, then the second turn’s error in the chat', async () => {
    const { page } = s;
    await page.click('[data-graph=one-answer]');
    await page.click('[data-testid=new-thread]');
    await runWith(page, { message: 'Hi' });
    await page.waitForSelector('[data-testid=run-status]:text("done")', { timeout: E2E_WAIT });
    expect(await page.textContent('[data-testid=live-output]')).toContain('Hello!');
    expect(await page.locator('[data-testid=chat-error]').count()).toBe(0);

    await runWith(page, { message: 'Again?' });
    const error = await page.waitForSelector('[data-testid=chat-error]', { timeout: E2E_WAIT });
    expect(await error.textContent()).toMatch(/SCRIPT_EXHAUSTED|no response scripted for call #1/);
    await s.shot('chat-error');
  });
});
