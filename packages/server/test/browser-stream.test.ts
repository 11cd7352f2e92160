// A web page using the SDK's own client streams a run in Chromium — across origins, through the CORS the
// server was configured with; a page from an origin it was not configured with is refused.
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { ServedServer } from '../src/index.js';
import type { PageGlobals } from './fixtures/browser-page.js';
import { chatGraph } from './fixtures/graphs.js';
import { startServer } from './fixtures/start.js';

const chromiumPath = '/usr/bin/chromium';
const hasChromium = existsSync(chromiumPath);
if (!hasChromium) console.warn(`[browser] SKIPPED: no Chromium at ${chromiumPath}`);

let page: Server;
let pageOrigin: string;
let served: ServedServer;
let browser: Browser | undefined;

beforeAll(async () => {
  if (!hasChromium) return;
  const bundle = await build({
    entryPoints: [fileURLToPath(new URL('./fixtures/browser-page.ts', import.meta.url))],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    write: false,
    logLevel: 'silent',
  });
  const script = bundle.outputFiles[0]?.text ?? '';
  page = createServer((req, res) => {
    if (req.url === '/page.js') {
      res.setHeader('content-type', 'text/javascript');
      res.end(script);
    } else {
      res.setHeader('content-type', 'text/html');
      res.end('<!doctype html><html><body><script src="/page.js"></script></body></html>');
    }
  });
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  pageOrigin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
  ({ served } = await startServer({
    graphs: { chat: chatGraph() },
    guard: { allowedOrigins: [pageOrigin] },
  }));
  browser = await chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--no-first-run',
    ],
  });
});

afterAll(async () => {
  await browser?.close();
  await served?.close();
  if (page) await new Promise<void>((resolve) => page.close(() => resolve()));
});

test.skipIf(!hasChromium)(
  'a page streams a run with the SDK, across origins allowed by CORS',
  { timeout: 600_000 },
  async () => {
    const tab = await browser!.newPage();
    await tab.goto(pageOrigin);
    const result = await tab.evaluate(
      (url) => (globalThis as unknown as PageGlobals).streamRun(url),
      served.url,
    );
    expect(result.events[0]).toBe('metadata');
    expect(result.events).toContain('messages');
    expect(result.events.at(-1)).toBe('values');
    expect(result.text).toBe('You said: from the browser ');
  },
);

test.skipIf(!hasChromium)('a page from another origin is refused', { timeout: 600_000 }, async () => {
  const tab = await browser!.newPage();
  await tab.goto(pageOrigin.replace('127.0.0.1', 'localhost'));
  const failure = await tab.evaluate(
    (url) =>
      (globalThis as unknown as PageGlobals).streamRun(url).then(
        () => 'streamed',
        (error: Error) => error.message,
      ),
    served.url,
  );
  expect(failure).not.toBe('streamed');
});
