import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoSession, E2E_WAIT, hasChromium, openDemo } from './browser.ts';

let s: DemoSession;

describe.skipIf(!hasChromium)('playground in Chromium: the Evals tab', () => {
  beforeAll(async () => {
    s = await openDemo();
  });
  afterAll(() => s?.close());

  it('runs the demo eval set against the assistant and shows every case passing', async () => {
    const { page } = s;
    await page.click('[data-testid=tab-evals]');
    await page.waitForSelector('[data-testid=eval-set]:has-text("assistant")');
    await page.selectOption('[data-testid=eval-agent]', 'assistant');
    await page.click('[data-testid=eval-run-button]');
    await page.waitForSelector('[data-testid=eval-report]', { timeout: E2E_WAIT });
    await expect.poll(() => page.textContent('[data-testid=eval-report] h3')).toContain('4/4 cases passed');
    expect(await page.locator('[data-testid=eval-case]').count()).toBe(4);
    await page.click('[data-testid=eval-case][data-case=booking-approved]');
    const trajectory = await page.textContent('[data-testid=eval-case-detail]');
    expect(trajectory).toContain('book_table');
    expect(trajectory).toContain('Booked Chez Weft');
    await s.shot('30-evals-report');
  });

  it('runs it against another agent and compares the two runs case by case', async () => {
    const { page } = s;
    await page.selectOption('[data-testid=eval-agent]', 'host');
    await page.click('[data-testid=eval-run-button]');
    await expect
      .poll(() => page.locator('[data-testid=eval-run][data-status=done]').count(), { timeout: E2E_WAIT })
      .toBe(2);
    await page.waitForSelector('[data-testid=eval-case][data-case=weather-lyon]');
    await page.click('[data-testid=eval-case][data-case=booking-approved]');
    await expect.poll(() => page.locator('.eval-row-diff').count()).toBeGreaterThan(0);
    await s.shot('31-evals-failing-run');
    const boxes = page.locator('[data-testid=eval-run] input[type=checkbox]');
    expect(await boxes.nth(0).isChecked()).toBe(true);
    await boxes.nth(1).check();
    await page.waitForSelector('[data-testid=eval-compare]');
    const regressed = await page.locator('[data-testid=eval-compare-row][data-change=regressed]').count();
    expect(regressed).toBeGreaterThan(0);
    expect(await page.textContent('[data-testid=eval-compare] h3')).toMatch(/assistant .*→ host/);
    await s.shot('32-evals-compare');
  });
});
