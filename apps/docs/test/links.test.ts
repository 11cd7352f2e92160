// Every link of the built site resolves (issue #50, 7): pages, anchors, images and assets, crawled from the
// home page through the served site; and every page is linked from somewhere. No network: links to other
// hosts are listed, not fetched.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { hasChromium } from '../../playground/test/e2e/chromium.ts';
import { distDir } from '../scripts/paths.ts';
import { type SiteServer, serveSite } from '../scripts/serve.ts';
import { checkLinks } from './check-links.ts';

describe.skipIf(!hasChromium)('the built site', () => {
  let site: SiteServer;
  beforeAll(async () => {
    site = await serveSite();
  });
  afterAll(() => site?.close());

  test('every internal link and anchor resolves, and every page is reached from the home page', async () => {
    const report = await checkLinks(site.url);
    expect(report.broken).toEqual([]);
    const pages = builtPages(distDir);
    expect(pages.length).toBeGreaterThan(60);
    expect(pages.filter((route) => !report.reached.has(route))).toEqual([]);
    console.log(
      `[docs] ${report.checked} URLs checked; ${report.external.size} links to other hosts not fetched`,
    );
  });
});

test('the check reports a missing page, a missing anchor and an orphan page', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'weft-docs-links-'));
  try {
    const page = (body: string) => `<!doctype html><html><body>${body}</body></html>`;
    writeFileSync(
      join(dir, 'index.html'),
      page('<a href="/guide#setup">setup</a> <a href="/missing">gone</a>'),
    );
    writeFileSync(join(dir, 'guide.html'), page('<h2 id="install">Install</h2>'));
    writeFileSync(join(dir, 'orphan.html'), page('nobody links here'));
    writeFileSync(join(dir, '404.html'), page('not found'));
    mkdirSync(join(dir, 'assets'));
    const site = await serveSite({ dir });
    try {
      const report = await checkLinks(site.url);
      expect(report.broken.map((line) => line.split(' ')[0]?.replace(site.url, ''))).toEqual(
        expect.arrayContaining(['/guide#setup', '/missing']),
      );
      expect(builtPages(dir).filter((route) => !report.reached.has(route))).toEqual(['/orphan']);
    } finally {
      await site.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** The routes of the built pages under `root` (`/tutorials/first-graph`, `/api` for api/index.html), 404 aside. */
function builtPages(root: string, dir = root): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'assets' ? [] : builtPages(root, path);
    if (!name.endsWith('.html') || name === '404.html') return [];
    return [`/${relative(root, path).replace(/\.html$/, '')}`.replace(/\/?index$/, '')];
  });
}
