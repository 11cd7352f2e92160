/// <reference lib="dom" />
// Issue #19 (1, 2) in a real browser: a page on another site cannot drive the playground, a DNS
// rebinding page (its own name pointed at 127.0.0.1 by Chromium's resolver rules) is refused, and a
// body over the cap gets a 413.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoApp } from '../../src/server/demo/demo-app.ts';
import { type PlaygroundServer, startServer } from '../../src/server/server.ts';
import { chromiumArgs, chromiumPath, hasChromium } from './chromium.ts';

const outputDir = fileURLToPath(new URL('../../test-output/', import.meta.url));
let playground: PlaygroundServer;
let evil: Server;
let evilPort: number;
let browser: Browser;

/** The attacker's page: fires a cross-site text/plain POST and a JSON POST at the playground. */
const attackPage = (target: string) => `<!doctype html><title>evil.test</title><pre id="log"></pre><script>
const log = (line) => { document.getElementById('log').textContent += line + '\\n'; };
(async () => {
  await fetch('${target}/api/threads', { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' },
    body: JSON.stringify({ graphId: 'counter-loop' }) }).then(() => log('no-cors post sent (opaque)'), (e) => log('no-cors post failed: ' + e));
  await fetch('${target}/api/threads', { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ graphId: 'counter-loop' }) }).then((r) => log('json post: ' + r.status), (e) => log('json post blocked: ' + e.message));
  await fetch('${target}/api/threads?graphId=counter-loop').then((r) => r.text()).then((t) => log('read: ' + t), (e) => log('read blocked: ' + e.message));
  log('done');
})();
</script>`;

const threads = async () =>
  (
    (await (
      await fetch(`${playground.url}/api/threads?graphId=counter-loop`, {
        headers: { authorization: `Bearer ${playground.token}` },
      })
    ).json()) as unknown[]
  ).length;

describe.skipIf(!hasChromium)('playground in Chromium: other pages cannot drive it', () => {
  beforeAll(async () => {
    playground = await startServer({ app: createDemoApp(), port: 0, database: ':memory:' });
    evil = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(attackPage(`http://127.0.0.1:${playground.port}`));
    });
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
    evilPort = (evil.address() as AddressInfo).port;
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: [...chromiumArgs, '--host-resolver-rules=MAP evil.test 127.0.0.1, MAP rebind.test 127.0.0.1'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => evil?.close(resolve));
    await playground?.close();
  });

  it('refuses the cross-site requests of a page on another site', async () => {
    const page = await browser.newPage({ viewport: { width: 900, height: 400 } });
    await page.goto(`http://evil.test:${evilPort}/`);
    await page.waitForFunction(() => document.getElementById('log')?.textContent?.includes('done'));
    const log = (await page.textContent('#log')) ?? '';
    expect(log).not.toContain('json post: 201');
    expect(log).not.toContain('read: [');
    expect(await threads()).toBe(0);
    await page.screenshot({ path: `${outputDir}38-cross-site-page-refused.png` });
    await page.close();
  });

  it('refuses a DNS-rebinding page (its Host is its own name), also from its own origin', async () => {
    const page = await browser.newPage({ viewport: { width: 900, height: 400 } });
    const answer = await page.goto(`http://rebind.test:${playground.port}/`);
    expect(answer?.status()).toBe(403);
    expect(await page.textContent('body')).toContain('FORBIDDEN_HOST');
    const status = await page.evaluate(async () => {
      const response = await fetch('/api/threads?graphId=refund-approval');
      return response.status;
    });
    expect(status).toBe(403);
    await page.screenshot({ path: `${outputDir}39-dns-rebinding-refused.png` });
    await page.close();
  });

  it("answers the playground's own page, and a body over the cap with a 413", async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    // The link weft dev prints: the token becomes this port's cookie.
    await page.goto(playground.openUrl);
    await page.waitForSelector('[data-testid=graph]');
    const statuses = await page.evaluate(async () => {
      const post = (body: string) =>
        fetch('/api/threads', { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(
          (r) => r.status,
        );
      const big = JSON.stringify({ graphId: 'counter-loop' }).padEnd(11 * 1024 * 1024, ' ');
      return [await post(JSON.stringify({ graphId: 'counter-loop' })), await post(big)];
    });
    expect(statuses).toEqual([201, 413]);
    await page.close();
  });
});
