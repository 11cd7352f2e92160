/// <reference lib="dom" />
// Issue #19 (8–10): a stop reads as stopped, the sidebar shows whole rows, and the message box starts
// empty for each agent.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DemoSession,
  E2E_WAIT,
  hasChromium,
  openDemo,
  openGraph,
  runWith,
  stepCount,
} from './browser.ts';

let s: DemoSession;

/** Texts of the elements under `selector` that are cut off: wider than their box, or past the sidebar. */
function clipped(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const side = document.querySelector('.sidebar')!.getBoundingClientRect();
    return [...document.querySelectorAll<HTMLElement>(sel)]
      .filter((el) => {
        const box = el.getBoundingClientRect();
        return el.scrollWidth > el.clientWidth + 1 || box.right > side.right + 0.5 || box.left < side.left;
      })
      .map((el) => el.textContent ?? '');
  }, selector);
}

describe.skipIf(!hasChromium)('playground in Chromium: the rough edges of #19', () => {
  beforeAll(async () => {
    s = await openDemo();
  });
  afterAll(() => s?.close());

  it('shows a stop the user asked for as stopped, not as a red run-error', async () => {
    const { page } = s;
    await openGraph(page, 'counter-loop', 'increment');
    await runWith(page, { target: '100', delayMs: '200' });
    await expect.poll(() => stepCount(page), { timeout: E2E_WAIT }).toBeGreaterThanOrEqual(2);
    await page.click('[data-testid=stop]');
    await page.waitForSelector('[data-testid=run-status]:text("cancelled")', { timeout: E2E_WAIT });
    const chip = page.locator('[data-testid=event-run-stopped]');
    await chip.waitFor();
    expect(await chip.textContent()).toBe('stopped');
    expect(await page.locator('[data-testid=event-run-error]').count()).toBe(0);
    const colour = await chip.evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(colour).not.toBe('rgb(254, 226, 226)'); // the error chips' red
    expect(await page.locator('.timeline .error-text').count()).toBe(0);
    expect(await page.textContent('[data-testid=run-stopped]')).toContain('stopped');
    await s.shot('30-stop-is-stopped');
  });

  it('keeps thread numbers, delete buttons, history rows and "step 10" whole in the sidebar', async () => {
    const { page } = s;
    await openGraph(page, 'refund-approval', 'check');
    for (let i = 0; i < 11; i++) await page.click('[data-testid=new-thread]');
    await expect.poll(() => page.locator('[data-testid=thread]').count()).toBe(11);
    expect(await page.locator('[data-testid=thread]').first().textContent()).toContain('#11');
    expect(await clipped(page, '.thread-number')).toEqual([]);
    expect(await clipped(page, '[data-testid=delete-thread]')).toEqual([]);
    expect(await clipped(page, '.thread .badge')).toEqual([]);
    await s.shot('31-sidebar-threads');

    await openGraph(page, 'counter-loop', 'increment');
    await page.click('[data-testid=new-thread]');
    await runWith(page, { target: '11', delayMs: '1' });
    await page.waitForSelector('[data-testid=run-status]:text("done")', { timeout: E2E_WAIT });
    await page.waitForSelector('[data-testid=checkpoint][data-step="10"]');
    expect(await clipped(page, '[data-testid=checkpoint] > span')).toEqual([]);
    const height = (step: string) =>
      page
        .locator(`[data-testid=checkpoint][data-step="${step}"] .checkpoint-step`)
        .evaluate((el) => el.getBoundingClientRect().height);
    expect(await height('10')).toBe(await height('1'));

    await openGraph(page, 'map-reduce', 'summarize');
    await page.click('[data-testid=new-thread]');
    await runWith(page, {});
    await page.waitForSelector('[data-testid=run-status]:text("done")', { timeout: E2E_WAIT });
    expect(await page.locator('[data-testid=checkpoint]').count()).toBeGreaterThan(2);
    expect(await clipped(page, '[data-testid=checkpoint] > span')).toEqual([]);
    await s.shot('32-sidebar-history');
  });

  it('starts with an empty message box when switching agents', async () => {
    const { page } = s;
    await openGraph(page, 'assistant', 'model');
    await page.fill('[data-testid=input-form] [name="message"]', 'for the assistant only');
    await page.click('[data-graph=supervisor]');
    await page.waitForSelector('[data-testid=input-form] [name="message"]');
    await expect.poll(() => page.inputValue('[data-testid=input-form] [name="message"]')).toBe('');
    await s.shot('33-message-box-cleared');
    await page.click('[data-graph=assistant]');
    expect(await page.inputValue('[data-testid=input-form] [name="message"]')).toBe('');
  });
});
