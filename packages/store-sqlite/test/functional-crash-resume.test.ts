import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { SqliteCheckpointer } from '../src/sqlite-checkpointer.js';
import { lines, startChild, waitForLines } from './crash/crash-process.js';
import { buildFunctionalCrashWorkflow, sequentialSteps } from './crash/func-crash-workflow.js';

/**
 * Kill -9 between two task calls of a functional-API entrypoint, then resume in a new process.
 *
 * What is promised (and asserted): a task call's result is stored before the call returns (`sync`
 * durability), so after a kill between tasks the resumed run gets every finished call's result from the
 * SQLite file and calls only the tasks that had not run: each task's side effect happens exactly once,
 * and the result equals a run nobody killed.
 */

const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));
const child = join(packageDir, 'test', 'crash', 'func-crash-child.ts');
let directory: string;
const children: ChildProcess[] = [];

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'weft-func-crash-'));
});

afterEach(() => {
  for (const process of children.splice(0)) if (process.exitCode === null) process.kill('SIGKILL');
  rmSync(directory, { recursive: true, force: true });
});

function start(args: readonly string[]) {
  return startChild(child, args, { cwd: packageDir, children });
}

it('an entrypoint killed with SIGKILL between tasks resumes without calling a finished task again', async () => {
  const filename = join(directory, 'weft.db');
  const log = join(directory, 'side-effects.log');
  const marker = join(directory, 'marker.log');
  const threadId = 'func-crash-thread';
  const stopAfter = 2;

  const first = start([filename, log, marker, threadId, 'start', String(stopAfter)]);
  await waitForLines(marker, 1, first.process);
  first.process.kill('SIGKILL');
  const killed = await first.exited;
  expect(killed.signal).toBe('SIGKILL');
  const beforeKill = lines(log);
  expect(beforeKill.sort()).toEqual(['fetch 0', 'fetch 1', 'fetch 2', 'step 0', 'step 1', 'step 2']);

  const second = start([filename, log, marker, threadId, 'resume']);
  const resumed = await second.exited;
  expect(resumed.stderr).toBe('');
  expect(resumed.code).toBe(0);

  const reference = await buildFunctionalCrashWorkflow(undefined, join(directory, 'reference.log')).invoke(3);
  expect(JSON.parse(resumed.stdout)).toEqual(reference);
  expect(reference).toEqual({ fetched: [0, 10, 20], total: 30 + 15 });

  // Every side effect exactly once: the resumed process ran only the steps after the kill.
  const all = lines(log);
  expect(all.slice(beforeKill.length)).toEqual(
    Array.from({ length: sequentialSteps - stopAfter - 1 }, (_, i) => `step ${stopAfter + 1 + i}`),
  );
  expect(new Set(all).size).toBe(all.length);

  const store = new SqliteCheckpointer({ filename });
  try {
    const app = buildFunctionalCrashWorkflow(store, join(directory, 'unused.log'));
    const state = await app.getState(threadId);
    expect(state?.values).toEqual(reference);
    expect(state?.next).toEqual([]);
  } finally {
    await store.close();
  }
}, 600_000);
