/// <reference lib="dom" />
// Issue #46 (3): a remote A2A agent is drawn as such — an A2A badge naming its URL on the team member
// that is one — and a run that hands work to it (a Weft agent served over A2A, called through the
// protocol) finishes with its reply.
import { type A2aServer, RemoteA2aAgent, serveA2a } from '@weft/a2a';
import { ChatModelAgent } from '@weft/adk';
import { ScriptedChatModel } from '@weft/adk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineApp } from '../../src/server/define-app.ts';
import { type DemoSession, E2E_WAIT, hasChromium, openDemo, runWith } from './browser.ts';

let s: DemoSession;
let remote: A2aServer;

describe.skipIf(!hasChromium)('playground in Chromium: a remote A2A agent', () => {
  beforeAll(async () => {
    const researcher = new ChatModelAgent({
      name: 'researcher',
      description: 'Finds sources',
      model: new ScriptedChatModel(['Three sources on tides.']),
    });
    remote = await serveA2a({ agent: researcher, port: 0 });
    const triage = new ChatModelAgent({
      name: 'triage',
      model: new ScriptedChatModel([
        { toolCalls: [{ name: 'transfer_to_agent', arguments: { agent_name: 'researcher' } }] },
      ]),
      subAgents: [new RemoteA2aAgent({ name: 'researcher', description: 'Finds sources', url: remote.url })],
    });
    s = await openDemo(defineApp({ agents: [triage] }));
  });
  afterAll(async () => {
    await s?.close();
    await remote?.close();
  });

  it('badges the remote agent with its URL and shows its reply', async () => {
    const { page } = s;
    await page.click('[data-graph=triage]');
    const badge = page.locator('[data-testid="remote-researcher"]');
    await badge.waitFor();
    expect(await badge.textContent()).toBe('A2A');
    expect(await badge.getAttribute('title')).toBe(`remote A2A agent at ${remote.url}`);
    expect(await page.locator('[data-testid^="remote-"]').count()).toBe(1); // triage itself is local
    await page.click('[data-testid=new-thread]');
    await runWith(page, { message: 'Find sources on tides' });
    await page.waitForSelector('[data-testid=run-status]:text("done")', { timeout: E2E_WAIT });
    await page.waitForSelector('text=Three sources on tides.');
    await s.shot('46-remote-a2a-agent');
  });
});
