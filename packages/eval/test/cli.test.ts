import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runEvalCli } from '../src/index.js';

const fixtures = new URL('./fixtures/', import.meta.url).pathname;
const bin = new URL('../bin/weft-eval.mjs', import.meta.url).pathname;

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t), cwd: fixtures },
  };
}

describe('weft eval', () => {
  it('exits 0 for a passing agent and writes the JSON and JUnit reports', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'weft-eval-cli-'));
    const { out, err, io: cliIo } = io();
    const code = await runEvalCli(
      [
        'calculator.yaml',
        '--module',
        'calculator.ts',
        '--agent',
        'calculator',
        '--json',
        join(dir, 'r.json'),
        '--junit',
        join(dir, 'r.xml'),
      ],
      cliIo,
    );
    expect(code).toBe(0);
    expect(out.join('\n')).toContain('3/3 cases passed');
    expect(err).toEqual(expect.arrayContaining([expect.stringMatching(/^\[\d\/3\] adds pass$/)]));
    expect(JSON.parse(await readFile(join(dir, 'r.json'), 'utf8')).totals.passed).toBe(3);
    expect(await readFile(join(dir, 'r.xml'), 'utf8')).toContain('failures="0"');
  });

  it('exits 1 for a broken agent, 2 for bad arguments, and lists the agents to choose from', async () => {
    const broken = io();
    expect(
      await runEvalCli(['calculator.yaml', '-m', 'calculator.ts', '-a', 'brokenCalculator'], broken.io),
    ).toBe(1);
    expect(broken.out.join('\n')).toContain('1/3 cases passed');
    const ambiguous = io();
    expect(await runEvalCli(['calculator.yaml', '-m', 'calculator.ts'], ambiguous.io)).toBe(2);
    expect(ambiguous.err.join('\n')).toContain(
      'offers 2 agents (calculator, brokenCalculator); choose one with --agent',
    );
    const bad = io();
    expect(await runEvalCli(['calculator.yaml', '-m', 'calculator.ts', '--repeats', 'x'], bad.io)).toBe(2);
    expect(bad.err.join('\n')).toContain('--repeats takes a whole number >= 1, got "x"');
  });

  it('runs as a program (tsx loads the TypeScript agent module) and exits 1 when a case fails', async () => {
    const run = promisify(execFile);
    const failed = await run(
      process.execPath,
      [bin, 'calculator.yaml', '-m', 'calculator.ts', '-a', 'broken_calculator'],
      {
        cwd: fixtures,
      },
    ).then(
      () => undefined,
      (error: { code: number; stdout: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stdout).toMatch(/adds\s+FAIL/);
    expect(failed?.stdout).toContain('1/3 cases passed');
  }, 600_000);
});
