// `weft serve <entry>` (issue #44): the playground's bin hands over to @weft/server's CLI, which serves
// the entry's graphs over the LangGraph API until SIGTERM, then shuts down gracefully.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
mkdirSync(join(root, 'test-output'), { recursive: true });
const dir = mkdtempSync(join(root, 'test-output', 'serve-'));
let child: ChildProcess | undefined;

afterAll(() => {
  if (child?.exitCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

it('serves the entry over the LangGraph API and exits cleanly on SIGTERM', { timeout: 600_000 }, async () => {
  writeFileSync(
    join(dir, 'graphs.ts'),
    `import { END, START, StateGraph } from '@weft/compose';
import { z } from 'zod';
export const doubler = new StateGraph(z.object({ n: z.number() }))
  .addNode('double', (s) => ({ n: s.n * 2 }))
  .addEdge(START, 'double')
  .addEdge('double', END)
  .compile();
`,
  );
  child = spawn(
    process.execPath,
    [
      join(root, 'bin/weft.mjs'),
      'serve',
      join(dir, 'graphs.ts'),
      '--port',
      '0',
      '--db',
      join(dir, 'server.db'),
    ],
    {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  for (const stream of [child.stdout, child.stderr]) stream?.on('data', (chunk: Buffer) => (output += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) {
        clearInterval(timer);
        resolve(match[1]!);
      } else if (child?.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(`weft serve exited:\n${output}`));
      }
    }, 100);
  });
  const response = await fetch(`${url}/runs/wait`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ assistant_id: 'doubler', input: { n: 21 } }),
  });
  expect(await response.json()).toEqual({ n: 42 });
  const exited = new Promise<number | null>((resolve) => child?.once('exit', resolve));
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
});
