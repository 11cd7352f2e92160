import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { executeTool } from '../src/deep/execute-tool.js';
import { LocalShell } from '../src/index.js';
import { call } from './helpers.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'weft-shell-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('LocalShell', () => {
  test('runs in the root with a minimal environment and reports exit codes', async () => {
    const shell = new LocalShell({ root });
    process.env.WEFT_TEST_SECRET = 's3cret';
    const ok = await shell.run('pwd; echo "home=$HOME secret=[$WEFT_TEST_SECRET]"; echo oops >&2');
    delete process.env.WEFT_TEST_SECRET;
    expect(ok.exitCode).toBe(0);
    expect(ok.stdout.split('\n')[0]?.endsWith(root.split('/').at(-1) ?? '')).toBe(true);
    expect(ok.stdout).toContain(`home=${root} secret=[]`);
    expect(ok.stderr).toBe('oops\n');
    const failed = await shell.run('exit 3');
    expect(failed).toMatchObject({ exitCode: 3, timedOut: false });
  });

  test('kills a command at its timeout', async () => {
    const result = await new LocalShell({ root, timeoutMs: 200 }).run('sleep 5');
    expect(result).toMatchObject({ timedOut: true, exitCode: null });
  });

  test('caps the output', async () => {
    const result = await new LocalShell({ root, maxOutputChars: 100 }).run('yes hello | head -c 100000');
    expect(result.truncated).toBe(true);
    expect(result.stdout.length).toBeLessThanOrEqual(100);
  });

  test('stops the command when the signal fires', async () => {
    const controller = new AbortController();
    const running = new LocalShell({ root }).run('sleep 5', { signal: controller.signal });
    controller.abort(new Error('stop'));
    await expect(running).rejects.toThrow('stop');
  });

  test('the execute tool reports exit code and output as a normal result', async () => {
    const execute = executeTool(new LocalShell({ root }));
    expect(await call(execute, { command: 'echo hi; exit 2' })).toEqual({
      text: 'exit code 2\nstdout:\nhi\n',
      status: 'success',
    });
  });
});
