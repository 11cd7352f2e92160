// Issue #19 (7): `weft` runs from the repository root (`pnpm exec weft`, `npx weft`) and from a user's
// project that installed @weft/playground.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const playground = fileURLToPath(new URL('../..', import.meta.url));
const repo = join(playground, '../..');

describe('weft from the repository root', () => {
  it('runs with pnpm exec and npx', async () => {
    const pnpm = await run('pnpm', ['exec', 'weft', '--help'], { cwd: repo });
    expect(pnpm.stdout).toContain('Usage: weft dev [entry] [options]');
    const npx = await run('npx', ['--no-install', 'weft', '--help'], { cwd: repo });
    expect(npx.stdout).toContain('Usage: weft dev [entry] [options]');
  });
});

describe("weft from a user's project that installed @weft/playground", () => {
  // Laid out as a package manager links it: node_modules/@weft/*, node_modules/.bin/weft, outside the repo.
  const project = mkdtempSync(join(tmpdir(), 'weft-user-'));
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.kill('SIGTERM');
    rmSync(project, { recursive: true, force: true });
  });
  mkdirSync(join(project, 'node_modules/@weft'), { recursive: true });
  mkdirSync(join(project, 'node_modules/.bin'));
  symlinkSync(playground, join(project, 'node_modules/@weft/playground'));
  symlinkSync(join(repo, 'packages/compose'), join(project, 'node_modules/@weft/compose'));
  symlinkSync(realpathSync(join(playground, 'node_modules/zod')), join(project, 'node_modules/zod'));
  symlinkSync(join(playground, 'bin/weft.mjs'), join(project, 'node_modules/.bin/weft'));
  writeFileSync(
    join(project, 'package.json'),
    '{ "name": "user-project", "private": true, "type": "module" }\n',
  );
  writeFileSync(
    join(project, 'graphs.ts'),
    `import { END, START, StateGraph } from '@weft/compose';
import { z } from 'zod';
export const hello = new StateGraph(z.object({ n: z.number().default(0) }))
  .addNode('inc', (s) => ({ n: s.n + 1 }))
  .addEdge(START, 'inc')
  .addEdge('inc', END)
  .compile({ name: 'hello' });
`,
  );

  it('shows the help', async () => {
    const { stdout } = await run('pnpm', ['exec', 'weft', '--help'], { cwd: project });
    expect(stdout).toContain('Usage: weft dev [entry] [options]');
  });

  it("serves the project's own graphs", { timeout: 600_000 }, async () => {
    child = spawn(
      'pnpm',
      ['exec', 'weft', 'dev', 'graphs.ts', '--port', '0', '--db', ':memory:', '--no-watch'],
      {
        cwd: project,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    const url = await new Promise<string>((resolve, reject) => {
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const match = /open (http:\/\/\S+)/.exec(output);
        if (match) resolve(match[1]!);
      };
      child?.stdout?.on('data', read);
      child?.stderr?.on('data', read);
      child?.on('exit', (code) => reject(new Error(`weft dev exited (${code}):\n${output}`)));
    });
    // The printed link carries the start's token; the graph list answers without it on loopback.
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{64}$/);
    const listed = await fetch(new URL('/api/graphs', url));
    const body = (await listed.json()) as { graphs: Array<{ id: string }> };
    expect(body.graphs.map((graph) => graph.id)).toEqual(['hello']);
  });
});
