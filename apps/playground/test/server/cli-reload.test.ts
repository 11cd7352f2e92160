import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
let dir: string;
let child: ChildProcess;
let url: string;
let output = '';

function graphsModule(nodes: readonly string[]): string {
  const chain = nodes.map((n) => `.addNode('${n}', (s) => ({ n: s.n + 1 }))`).join('\n  ');
  const edges = ['START', ...nodes.map((n) => `'${n}'`), 'END']
    .slice(1)
    .map((to, i, all) => `.addEdge(${i === 0 ? 'START' : all[i - 1]}, ${to})`)
    .join('\n  ');
  return `import { END, START, StateGraph } from '@weft/compose';
import { z } from 'zod';
export const alpha = new StateGraph(z.object({ n: z.number().default(0) }))
  ${chain}
  ${edges}
  .compile({ name: 'alpha' });
`;
}

async function graphs(): Promise<{ ids: string[]; nodes: string[]; problems: string[] }> {
  const body = (await (await fetch(`${url}/api/graphs`)).json()) as {
    graphs: Array<{ id: string; topology: { nodes: Array<{ id: string }> } }>;
    problems: string[];
  };
  return {
    ids: body.graphs.map((g) => g.id),
    nodes: body.graphs[0]?.topology.nodes.map((n) => n.id) ?? [],
    problems: body.problems,
  };
}

async function waitFor<T>(read: () => T | undefined, timeoutMs: number): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > until || child.exitCode !== null) throw new Error(`weft dev did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  mkdirSync(join(root, 'test-output'), { recursive: true });
  dir = mkdtempSync(join(root, 'test-output', 'entry-'));
  writeFileSync(join(dir, 'graphs.ts'), graphsModule(['first']));
  writeFileSync(join(dir, 'entry.ts'), "export { alpha } from './graphs.ts';\n");
  child = spawn(
    process.execPath,
    [join(root, 'bin/weft.mjs'), 'dev', join(dir, 'entry.ts'), '--port', '0', '--db', join(dir, 'weft.db')],
    { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  url = await waitFor(() => /open (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1], 540_000);
}, 600_000);

afterAll(async () => {
  if (child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('weft dev <entry>', () => {
  it('serves the graphs the entry exports, on 127.0.0.1, and prints the URL', async () => {
    expect(output).toContain('serving');
    expect(await graphs()).toEqual({
      ids: ['alpha'],
      nodes: ['__start__', 'first', '__end__'],
      problems: [],
    });
  });

  it('reloads when a file the entry imports changes, and keeps serving when a change breaks it', async () => {
    writeFileSync(join(dir, 'graphs.ts'), graphsModule(['first', 'second']));
    await expect.poll(async () => (await graphs()).nodes, { timeout: 120_000 }).toContain('second');
    writeFileSync(join(dir, 'graphs.ts'), 'export const alpha = ;\n');
    await expect
      .poll(async () => (await graphs()).problems.join(' '), { timeout: 120_000 })
      .toContain('reloading');
    expect((await graphs()).nodes).toContain('second');
    writeFileSync(join(dir, 'graphs.ts'), graphsModule(['first', 'second', 'third']));
    await expect.poll(async () => (await graphs()).nodes, { timeout: 120_000 }).toContain('third');
    expect((await graphs()).problems).toEqual([]);
  });

  it('stops cleanly on SIGTERM', async () => {
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
