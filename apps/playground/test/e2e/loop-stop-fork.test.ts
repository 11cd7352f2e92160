import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DemoSession,
  E2E_WAIT,
  hasChromium,
  holdLatestHistory,
  openDemo,
  openGraph,
  recordSteps,
  runWith,
  stepCount,
} from './browser.ts';

let s: DemoSession;

describe.skipIf(!hasChromium)('playground in Chromium: loop, stop, fork', () => {
  beforeAll(async () => {
    s = await openDemo();
  });
  afterAll(() => s?.close());

  it('opens the demo with its graphs and draws the loop graph', async () => {
    const graphs = await s.page.locator('[data-testid=graph]').allTextContents();
    expect(graphs.join(' ')).toMatch(/counter-loop.*map-reduce.*dag-pipeline.*refund-approval.*assistant/);
    await openGraph(s.page, 'counter-loop', 'increment');
    await s.page.waitForSelector('[data-testid="node-report"]');
    await s.shot('01-demo-home');
  });

  it('runs the loop: the node lights up while it runs and the step count grows', async () => {
    const { page } = s;
    const shown = await recordSteps(page);
    await runWith(page, { target: '8', delayMs: '250' });
    await page.waitForSelector('[data-testid="node-increment"][data-status=running]');
    await s.shot('02-loop-running');
    await page.waitForSelector('[data-testid=run-status]:text("done")', { timeout: E2E_WAIT });
    expect(await stepCount(page)).toBe(9);
    // The count grew while the run went on: the page showed several counts before "done", never going back.
    const record = await shown();
    const running = new Set(record.filter((entry) => entry.status === 'running').map((entry) => entry.steps));
    expect(running.size).toBeGreaterThanOrEqual(2);
    const counts = record.map((entry) => entry.steps).filter((steps) => steps > 0);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(await page.getAttribute('[data-testid="node-report"]', 'data-status')).toBe('done');
    await page.locator('[data-testid=step][data-step="3"]').click();
    await page.waitForSelector('[data-testid=state-diff]');
    expect(await page.textContent('[data-testid=state-diff]')).toContain('count');
    await s.shot('03-loop-done-step-diff');
  });

  it('stops a long run: it ends as cancelled and no step starts afterwards', async () => {
    const { page } = s;
    await page.click('[data-testid=new-thread]');
    await runWith(page, { target: '100', delayMs: '300' });
    await expect.poll(() => stepCount(page), { timeout: E2E_WAIT }).toBeGreaterThanOrEqual(3);
    await page.click('[data-testid=stop]');
    await page.waitForSelector('[data-testid=run-status]:text("cancelled")', { timeout: E2E_WAIT });
    const atStop = await stepCount(page);
    await page.waitForTimeout(1_000);
    expect(await stepCount(page)).toBe(atStop);
    expect(await page.getAttribute('[data-testid="node-increment"]', 'data-status')).toBe('cancelled');
    await page.waitForSelector('[data-testid=continue-run]');
    await s.shot('04-stopped');
  });

  it('forks from step 2 with edited state, and the history shows both branches', async () => {
    const { page } = s;
    await page.click('[data-testid=new-thread]');
    // The page's last history answer of the run comes while the user edits (as on a loaded machine).
    const lateHistory = await holdLatestHistory(page);
    await runWith(page, { target: '4', delayMs: '100' });
    await page.waitForSelector('[data-testid=run-status]:text("done")', { timeout: E2E_WAIT });
    await page.waitForSelector('[data-testid=checkpoint][data-step="4"]');
    await page.locator('[data-testid=checkpoint][data-step="2"]').first().click();
    const editor = page.locator('[data-testid=fork-editor]');
    const values = JSON.parse(await editor.inputValue()) as { count: number; target: number };
    expect(values.count).toBe(3);
    const edited = JSON.stringify({ ...values, count: 20, target: 22 }, null, 2);
    await editor.fill(edited);
    // A fresh copy of the same checkpoint must not throw the edit away.
    await lateHistory.release();
    expect(await editor.inputValue()).toBe(edited);
    await page.click('[data-testid=fork]');
    await page.waitForSelector('[data-testid=run-select] option:text("fork")', { state: 'attached' });
    await page.waitForSelector('[data-testid=run-status]:text("done")', { timeout: E2E_WAIT });
    await expect.poll(() => page.locator('[data-testid=branch]').count(), { timeout: E2E_WAIT }).toBe(2);
    expect(await page.textContent('[data-testid=branch-count]')).toContain('2 branches');
    const sources = await page
      .locator('[data-testid=branch] [data-testid=checkpoint]')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-source')));
    expect(sources).toContain('update');
    await page.locator('[data-testid=checkpoint][data-source=update]').click();
    await page.waitForSelector('[data-testid=checkpoint-view]');
    // The fork wrote only the edited keys, on top of step 2: the others keep step 2's values.
    await expect
      .poll(async () => JSON.parse(await editor.inputValue()) as unknown, { timeout: E2E_WAIT })
      .toEqual({ ...values, count: 20, target: 22 });
    await s.shot('05-fork-history-branches');
  });
});
