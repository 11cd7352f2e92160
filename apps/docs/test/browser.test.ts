// The built site in headless Chromium (issue #50, evidence): the home page, a tutorial and an API page
// render, diagrams are SVG in the page, the playground's screenshots load, and search finds pages with
// no request to any other host — also after the browser goes offline. Screenshots: test-output/.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromiumArgs, chromiumPath, hasChromium } from '../../playground/test/e2e/chromium.ts';
import { type SiteServer, serveSite } from '../scripts/serve.ts';

const outputDir = fileURLToPath(new URL('../test-output/', import.meta.url));
const wait = 120_000;

describe.skipIf(!hasChromium)('the site in a browser', () => {
  let site: SiteServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const elsewhere: string[] = [];

  beforeAll(async () => {
    mkdirSync(outputDir, { recursive: true });
    site = await serveSite();
    browser = await chromium.launch({ executablePath: chromiumPath, args: [...chromiumArgs] });
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    // Nothing may come from another host: fonts, search and scripts are all the site's own.
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(site.url) || url.startsWith('data:')) return route.continue();
      elsewhere.push(url);
      return route.abort();
    });
    page = await context.newPage();
    page.setDefaultTimeout(wait);
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  const shot = (name: string) => page.screenshot({ path: `${outputDir}${name}.png`, fullPage: false });

  test('the home page', async () => {
    await page.goto(`${site.url}/`);
    await expect(page.locator('.VPHero .name').textContent()).resolves.toContain('Weft');
    await page.locator('.VPHero a', { hasText: 'Your first graph' }).waitFor();
    await shot('docs-home');
  });

  test('a tutorial, with its code and the output it prints', async () => {
    await page.goto(`${site.url}/tutorials/first-graph`);
    await expect(page.locator('main h1').first().textContent()).resolves.toMatch(/first graph/i);
    expect(await page.locator('main div[class*="language-ts"]').count()).toBeGreaterThan(2);
    expect(await page.locator('main div[class*="language-text"]').count()).toBeGreaterThan(1);
    await shot('docs-tutorial');
  });

  test('a concept page shows its diagrams, rendered to SVG at build', async () => {
    await page.goto(`${site.url}/concepts/supersteps`);
    const diagrams = page.locator('.mermaid-diagram img[src$=".svg"]');
    await diagrams.first().waitFor();
    const sizes = await diagrams.evaluateAll((all) =>
      Promise.all(
        (all as HTMLImageElement[]).map(async (image) => {
          image.loading = 'eager';
          await image.decode().catch(() => undefined);
          return image.naturalWidth;
        }),
      ),
    );
    expect(sizes.length).toBeGreaterThan(1);
    expect(sizes.filter((width) => width === 0)).toEqual([]);
    await diagrams.first().scrollIntoViewIfNeeded();
    await shot('docs-concept-diagram');
  });

  test('an API page generated from TSDoc', async () => {
    await page.goto(`${site.url}/api/compose#stategraph`);
    await page.locator('main h3', { hasText: 'StateGraph' }).first().waitFor();
    expect(await page.locator('main').textContent()).toContain('addConditionalEdges');
    await shot('docs-api-compose');
  });

  test("the playground's screenshots, from its browser tests, load", async () => {
    await page.goto(`${site.url}/playground`);
    const images = page.locator('main img[src*="/screenshots/"]');
    await images.first().waitFor();
    const widths = await images.evaluateAll((all) =>
      Promise.all(
        (all as HTMLImageElement[]).map(async (image) => {
          image.scrollIntoView();
          await image.decode().catch(() => undefined);
          return image.naturalWidth;
        }),
      ),
    );
    expect(widths.length).toBeGreaterThan(2);
    expect(widths.filter((width) => width === 0)).toEqual([]);
    await shot('docs-playground');
  });

  test('search finds pages in the browser, online and offline', async () => {
    await page.goto(`${site.url}/`);
    const search = async (query: string) => {
      await page.locator('.VPNavBarSearch button').click();
      const input = page.locator('.VPLocalSearchBox input');
      await input.fill(query);
      await page.locator('.VPLocalSearchBox .result').first().waitFor();
      return page
        .locator('.VPLocalSearchBox .result')
        .evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).getAttribute('href') ?? ''));
    };
    const interrupts = await search('interrupt resume');
    expect(interrupts.some((href) => href.includes('/tutorials/human-in-the-loop'))).toBe(true);
    await shot('docs-search');
    await page.keyboard.press('Escape');
    await context.setOffline(true);
    try {
      const stores = await search('SqliteCheckpointer');
      expect(stores.length).toBeGreaterThan(0);
      expect(
        stores.some(
          (href) => href.includes('/tutorials/durable-runs') || href.includes('/packages/store-sqlite'),
        ),
      ).toBe(true);
      await shot('docs-search-offline');
    } finally {
      await context.setOffline(false);
    }
  });

  test('no page asked another host for anything', () => {
    expect(elsewhere).toEqual([]);
  });
});
