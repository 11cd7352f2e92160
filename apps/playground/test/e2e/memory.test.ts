import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoSession, E2E_WAIT, hasChromium, openDemo, openGraph, runWith } from './browser.ts';

let s: DemoSession;

describe.skipIf(!hasChromium)('playground in Chromium: the Memory tab and thread artifacts', () => {
  beforeAll(async () => {
    s = await openDemo();
  });
  afterAll(() => s?.close());

  it('remembers a preference in one thread, recalls it in another and shows the recall', async () => {
    const { page } = s;
    await openGraph(page, 'barista', 'model');
    await runWith(page, { message: 'I love green tea, never coffee.' });
    await page.waitForSelector('[data-testid=run-status]:text("done")', { timeout: E2E_WAIT });

    // The extraction runs in the background after the turn: the Memory tab shows it once it is done.
    await page.click('[data-testid=tab-memory]');
    await page.waitForSelector('[data-testid=memory-view]');
    await expect
      .poll(
        async () => {
          await page.click('[data-testid=memory-search-button]');
          return page.locator('[data-testid=memory-hit]:has-text("I love green tea")').count();
        },
        { timeout: E2E_WAIT },
      )
      .toBe(1);

    await page.click('[data-testid=tab-graphs]');
    await page.click('[data-testid=new-thread]');
    await runWith(page, { message: 'What is my usual drink?' });
    await page.waitForSelector('[data-testid=run-status]:text("done")', { timeout: E2E_WAIT });
    await expect
      .poll(() => page.textContent('[data-testid=live-output]'))
      .toContain('A green tea, as you like it.');

    await page.click('[data-testid=tab-memory]');
    await page.fill('[data-testid=memory-view] [name=query]', 'green tea');
    await page.click('[data-testid=memory-search-button]');
    await page.waitForSelector('[data-testid=memory-hit]:has-text("I love green tea")');
    const recall = page.locator('[data-testid=memory-recall]:has-text("What is my usual drink?")');
    await recall.waitFor();
    expect(await recall.textContent()).toContain('I love green tea, never coffee.');
    await s.shot('40-memory-tab');
    await page.fill('[data-testid=memory-view] [name=userId]', 'someone-else');
    await page.click('[data-testid=memory-search-button]');
    await expect.poll(() => page.locator('[data-testid=memory-hit]').count()).toBe(0);
  });

  it('shows the artifacts a tool saved on the thread', async () => {
    const { page } = s;
    await page.click('[data-testid=tab-graphs]');
    await runWith(page, { message: 'Please order my drink' });
    await page.waitForSelector('[data-testid=run-status]:text("done")', { timeout: E2E_WAIT });
    const artifact = page.locator('[data-testid=artifact][data-name="order.txt"]');
    await artifact.waitFor({ timeout: E2E_WAIT });
    await artifact.locator('summary').click();
    expect(await artifact.textContent()).toContain('1 × green tea');
    expect(await artifact.textContent()).toContain('v0');
    await s.shot('41-thread-artifacts');
  });
});
