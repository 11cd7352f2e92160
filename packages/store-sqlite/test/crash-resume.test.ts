import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { SqliteCheckpointer } from '../src/sqlite-checkpointer.js';
import { buildCrashGraph, crashSteps } from './crash/crash-graph.js';
import { lines, startChild, waitForLines } from './crash/crash-process.js';

/**
 * Kill -9 in the middle of a durable run, then resume in a new process.
 *
 * What is promised (and asserted): the resumed thread ends in the same state as a run nobody killed, and
 * no finished task runs twice. The one task that was running when the process died is not finished — it
 * has no checkpoint — so it runs again: its side effect may appear twice. Nodes with side effects that must
 * not repeat make them idempotent (keyed by `ctx.taskId`, which stays the same across the re-run).
 */

const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));
const child = join(packageDir, 'test', 'crash', 'crash-child.ts');
let directory: string;
const children: ChildProcess[] = [];

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'weft-crash-'));
});

afterEach(() => {
  for (const process of children.splice(0)) if (process.exitCode === null) process.kill('SIGKILL');
  rmSync(directory, { recursive: true, force: true });
});

function start(args: readonly string[]) {
  return startChild(child, args, { cwd: packageDir, children });
}

it('a run killed with SIGKILL resumes in a new process without re-running finished tasks', async () => {
  const filename = join(directory, 'weft.db');
  const log = join(directory, 'side-effects.log');
  const threadId = 'crash-thread';

  const first = start([filename, log, threadId, 'start']);
  await waitForLines(log, 10, first.process);
  first.process.kill('SIGKILL');
  const killed = await first.exited;
  expect(killed.signal).toBe('SIGKILL');
  const beforeKill = lines(log);
  expect(beforeKill.length).toBeGreaterThanOrEqual(10);
  expect(beforeKill.length).toBeLessThan(crashSteps);

  const second = start([filename, log, threadId, 'resume']);
  const resumed = await second.exited;
  expect(resumed.stderr).toBe('');
  expect(resumed.code).toBe(0);

  const reference = await buildCrashGraph(undefined, join(directory, 'reference.log'), 0).invoke({});
  expect(JSON.parse(resumed.stdout)).toEqual(reference);

  const all = lines(log);
  const counts = new Map<string, number>();
  for (const id of all) counts.set(id, (counts.get(id) ?? 0) + 1);
  expect(counts.size).toBe(crashSteps);
  const repeated = [...counts].filter(([, n]) => n > 1);
  // Only the task that was running at the kill (the last one logged) may have run twice.
  expect(repeated.every(([id, n]) => id === beforeKill.at(-1) && n === 2)).toBe(true);
  expect(all.length).toBe(crashSteps + repeated.length);
  console.log(
    `crash test: killed after ${beforeKill.length} side effects; ` +
      `${repeated.length === 0 ? 'no task' : `task ${repeated[0]?.[0]}`} ran twice`,
  );

  // The store holds the input checkpoint and one per step, nothing duplicated by the crash.
  const store = new SqliteCheckpointer({ filename });
  try {
    expect(await store.list(threadId)).toHaveLength(crashSteps + 1);
  } finally {
    await store.close();
  }
}, 600_000);
