import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoSession, E2E_WAIT, hasChromium, openDemo, openGraph, runWith } from './browser.ts';

let s: DemoSession;

describe.skipIf(!hasChromium)('playground in Chromium: the prebuilt multi-agent templates', () => {
  beforeAll(async () => {
    s = await openDemo();
  });
  afterAll(() => s?.close());

  it('draws the supervisor team and runs it through both workers', async () => {
    const { page } = s;
    await openGraph(page, 'supervisor', 'researcher');
    await runWith(page, { message: 'Tell me about graphs' });
    await page.waitForSelector('[data-testid=run-status]:text("done")', { timeout: E2E_WAIT });
    expect(await page.getAttribute('[data-testid="node-writer"]', 'data-status')).toBe('done');
    await expect.poll(() => page.textContent('[data-testid=live-output]')).toContain('Done. In short:');
    await s.shot('20-supervisor-done');
  });

  it('draws the plan-execute graph and runs it to the answer', async () => {
    const { page } = s;
    await openGraph(page, 'plan-execute', 'replanner');
    await runWith(page, { message: 'How does Weft run agents?' });
    await page.waitForSelector('[data-testid=run-status]:text("done")', { timeout: E2E_WAIT });
    expect(await page.getAttribute('[data-testid="node-answer"]', 'data-status')).toBe('done');
    await s.shot('21-plan-execute-done');
  });

  it('draws the host graph and merges two specialists', async () => {
    const { page } = s;
    await openGraph(page, 'host', 'merge');
    await runWith(page, { message: 'Weather and news please' });
    await page.waitForSelector('[data-testid=run-status]:text("done")', { timeout: E2E_WAIT });
    await expect.poll(() => page.textContent('[data-testid=live-output]')).toContain('Here is everything');
    await s.shot('22-host-done');
  });
});
