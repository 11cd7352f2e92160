// Every link of the built site resolves (issue #50, 7): pages, anchors (`#id` on the page it points to),
// images and assets, crawled from the home page through the served site (linkinator, fragments checked).
// No network: links to other hosts are listed, not fetched.
import { LinkChecker, LinkState } from 'linkinator';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { hasChromium } from '../../playground/test/e2e/chromium.ts';
import { type SiteServer, serveSite } from '../scripts/serve.ts';

describe.skipIf(!hasChromium)('the built site', () => {
  let site: SiteServer;
  const external = new Set<string>();
  beforeAll(async () => {
    site = await serveSite();
  });
  afterAll(() => site?.close());

  test('every internal link and anchor resolves, and every page is reached from the home page', async () => {
    const checker = new LinkChecker();
    const result = await checker.check({
      path: `${site.url}/`,
      recurse: true,
      checkFragments: true,
      cleanUrls: true,
      concurrency: 8,
      timeout: 60_000,
      linksToSkip: async (link) => {
        if (link.startsWith(site.url)) return false;
        external.add(link);
        return true;
      },
    });
    const broken = result.links
      .filter((link) => link.state === LinkState.BROKEN)
      .map(
        (link) =>
          `${link.url} (on ${link.parent}): ${link.status ?? ''} ${link.failureDetails?.map(String).join('; ') ?? ''}`,
      );
    expect(broken).toEqual([]);
    const pages = new Set(
      result.links.filter((link) => link.state === LinkState.OK).map((link) => link.url.split('#')[0]),
    );
    for (const path of [
      '/tutorials/first-graph',
      '/concepts/supersteps',
      '/how-to/stream-tokens',
      '/migrate/langgraph-js',
      '/api/compose',
      '/packages/compose',
      '/design/architecture',
    ])
      expect(pages, path).toContain(`${site.url}${path}`);
    expect(result.links.length).toBeGreaterThan(500);
    console.log(
      `[docs] ${result.links.length} links checked; ${external.size} links to other hosts not fetched`,
    );
  });
});
