/// <reference lib="dom" />
// Issue #19 (4): token usage and cost per model call, per agent and per run, from the model's usage and
// the app's price table (the demo prices its scripted models with `defineApp({ prices })`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoSession, E2E_WAIT, hasChromium, openDemo, runWith } from './browser.ts';

let s: DemoSession;

const dollars = /\$\d+(\.\d+)?(e-\d+)?/;

describe.skipIf(!hasChromium)('playground in Chromium: cost', () => {
  beforeAll(async () => {
    s = await openDemo();
  });
  afterAll(() => s?.close());

  it('shows the cost of each model call in the trace, per agent above it, and the run’s in its header', async () => {
    const { page } = s;
    await page.click('[data-graph=supervisor]');
    await page.click('[data-testid=new-thread]');
    await runWith(page, { message: 'Tell me about graphs' });
    await page.waitForSelector('[data-testid=run-status]:text("done")', { timeout: E2E_WAIT });
    expect(await page.textContent('[data-testid=run-cost]')).toMatch(dollars);
    await page.click('[data-testid=view-trace]');
    await page.waitForSelector('[data-testid=trace]');
    const model = page.locator('[data-testid=span][data-kind=model]');
    await expect.poll(() => model.count()).toBe(6);
    for (const label of await model.allTextContents()) expect(label).toMatch(/\d+ tokens · \$/);
    const rows = page.locator('[data-testid=usage-row]');
    const agents = await rows.evaluateAll((trs) => trs.map((tr) => tr.querySelector('td')?.textContent));
    expect(agents).toEqual(['supervisor', 'researcher', 'writer']);
    for (const cost of await page.locator('[data-testid=usage-row-cost]').allTextContents())
      expect(cost).toMatch(dollars);
    // The run's total is the sum of the agents' (each rounded to two significant digits on screen).
    const total = Number((await page.textContent('[data-testid=usage-total] td:last-child'))?.slice(1));
    const parts = (await page.locator('[data-testid=usage-row-cost]').allTextContents()).map((c) =>
      Number(c.slice(1)),
    );
    expect(total).toBeCloseTo(
      parts.reduce((a, b) => a + b, 0),
      3,
    );
    expect(await page.textContent('[data-testid=run-cost]')).toContain(
      (await page.textContent('[data-testid=usage-total] td:last-child')) ?? 'missing',
    );
    await s.shot('38-run-cost');
  });
});
