// Weft runs in a browser: Vite bundles examples/browser (compose + adk + a scripted model), headless
// Chromium opens it, and the page runs a loop with an interrupt and a resume on the in-memory
// checkpointer and a streaming agent. A second build of compose alone reports its minified + gzip size
// and proves no Node built-in reaches the bundle.
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { afterAll, describe, expect, test } from 'vitest';

const chromiumPath = '/usr/bin/chromium';
const root = new URL('../browser/', import.meta.url).pathname;
const hasChromium = existsSync(chromiumPath);
if (!hasChromium)
  console.warn(`\n[browser] SKIPPED: ${chromiumPath} is missing (apt-get install -y chromium)\n`);

async function bundle(input: string, outDir: string): Promise<void> {
  await build({
    root,
    logLevel: 'silent',
    configFile: false,
    resolve: { conditions: ['@weft/source', 'browser'] },
    build: {
      outDir,
      emptyOutDir: true,
      minify: true,
      target: 'es2022',
      rollupOptions: {
        input: join(root, input),
        ...(input.endsWith('.ts') ? { preserveEntrySignatures: 'strict' } : {}),
      },
      ...(input.endsWith('.ts')
        ? { lib: { entry: join(root, input), formats: ['es'], fileName: 'compose' } }
        : {}),
    },
  });
}

async function jsOf(dir: string): Promise<string> {
  const files: string[] = [];
  const walk = async (d: string): Promise<void> => {
    for (const entry of await readdir(d, { withFileTypes: true })) {
      if (entry.isDirectory()) await walk(join(d, entry.name));
      else if (entry.name.endsWith('.js')) files.push(await readFile(join(d, entry.name), 'utf8'));
    }
  };
  await walk(dir);
  return files.join('\n');
}

const servers: Server[] = [];
afterAll(() => {
  for (const server of servers) server.close();
});

function serve(dir: string): Promise<string> {
  const types: Record<string, string> = {
    '.html': 'text/html',
    '.js': 'text/javascript',
    '.css': 'text/css',
  };
  const server = createServer((request, response) => {
    const path = join(
      dir,
      (request.url ?? '/') === '/' ? 'index.html' : ((request.url ?? '').split('?')[0] ?? ''),
    );
    readFile(path).then(
      (body) =>
        response
          .writeHead(200, { 'content-type': types[extname(path)] ?? 'application/octet-stream' })
          .end(body),
      () => response.writeHead(404).end(),
    );
  });
  servers.push(server);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`);
    }),
  );
}

describe('in a browser', () => {
  test('compose alone bundles without Node built-ins, small, with zod split off and loaded on demand', async () => {
    const out = await mkdtemp(join(tmpdir(), 'weft-compose-bundle-'));
    await bundle('compose-only.ts', out);
    const js = await jsOf(out);
    expect(js).not.toMatch(/__vite-browser-external|from\s*["']node:|require\(["']node:/);
    expect(js).not.toContain('AsyncLocalStorage');
    const files = await readdir(out);
    const sizes = await Promise.all(
      files
        .filter((f) => f.endsWith('.js'))
        .map(async (f) => ({ f, text: await readFile(join(out, f), 'utf8') })),
    );
    const zod = sizes.filter(({ f }) => f.startsWith('zod'));
    const compose = sizes
      .filter(({ f }) => !f.startsWith('zod'))
      .map(({ text }) => text)
      .join('\n');
    const composeGzip = gzipSync(compose).length;
    const zodGzip = gzipSync(zod.map(({ text }) => text).join('\n')).length;
    console.log(
      `[browser] @weft/compose: ${(compose.length / 1024).toFixed(1)} KB minified, ${(composeGzip / 1024).toFixed(1)} KB gzip (graphology included); zod, loaded on the first input check: ${(zodGzip / 1024).toFixed(1)} KB gzip`,
    );
    expect(zod).toHaveLength(1);
    // Budget: 86 KB gzip (84 until issue 48). Measured 72.6 KB on 2026-12-01 (was 63–66 before the Workflow builder, durable
    // DAG mode, stream pipes and call options landed in the main entry) and 76.5 KB on 2026-12-02, after
    // issue 28's hot-path work (flat successor rows and the topology builder, the plain body tail, the
    // synchronous memory put, the ring queue: code that trades size for time); graphology and its
    // dependencies (events, mnemonist, obliterator) are ~70 of the 294 KB minified, used only by DAG
    // mode's planner. The functional API sits in its own entry (@weft/compose/func) and is not counted.
    // 79.5 → 81.2 KB on 2026-12-07 with issue 39's reference parity (compiled.nodes, seeding threads and
    // input checkpoints, stream copies to every reader, answered pauses kept for time travel, LangGraph's
    // retry predicate, whole-state rules), and about 0.7 KB more with issue 41 (ADR 029): what every
    // store, MemoryStore included, must now do — check that a value is JSON (naming the path at fault)
    // and offer an atomic insert-if-absent — and agents' graphs naming their agent on run-start and
    // step-start events. 83.7 KB with issue 48 (ADR 036) alone: checkpoints naming their graph and state
    // version, state migrations on load, MemoryCheckpointer's maintenance methods (the maintenance tools
    // themselves — retention, compaction, verify, replay — are their own entry, not counted); 84.8 KB
    // once merged with issue 47's effects, hence the budget of 86.
    // Issue 51 sets the goal of 45 KB with DAG mode loaded on demand.
    expect(composeGzip).toBeLessThan(86 * 1024);
  }, 600_000);

  test.skipIf(!hasChromium)(
    'a page runs a loop, an interrupt and a resume, and a streaming agent',
    async () => {
      const out = await mkdtemp(join(tmpdir(), 'weft-browser-page-'));
      await bundle('index.html', out);
      expect(await jsOf(out)).not.toMatch(/__vite-browser-external/);
      const url = await serve(out);
      const browser = await chromium.launch({
        executablePath: chromiumPath,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--disable-component-update',
          '--no-first-run',
        ],
      });
      try {
        const page = await browser.newPage();
        const errors: string[] = [];
        page.on('pageerror', (error) => errors.push(error.message));
        await page.goto(url);
        await page.waitForFunction(
          () => (globalThis as { weftResult?: unknown }).weftResult !== undefined,
          undefined,
          { timeout: 60_000 },
        );
        const result = await page.evaluate(() => (globalThis as { weftResult?: unknown }).weftResult);
        expect(errors).toEqual([]);
        expect(result).toEqual({
          graph: { status: 'interrupted', question: 'ship it?', final: { count: 3, approved: true } },
          agent: { chunks: expect.any(Number), answer: 'Hello from a Weft agent running in your browser.' },
        });
        expect((result as { agent: { chunks: number } }).agent.chunks).toBeGreaterThan(1);
      } finally {
        await browser.close();
      }
    },
    600_000,
  );
});
