import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { SqliteCheckpointer } from '../src/sqlite-checkpointer.js';
import { lines, startChild, waitForLines } from './crash/crash-process.js';
import {
  buildDagCrashGraph,
  dagBlockingNode,
  dagCrashNodes,
  dagLoggedBeforeKill,
} from './crash/dag-crash-graph.js';

/**
 * Kill -9 in the middle of a durable DAG-mode run, then resume in a new process (ADR 023).
 *
 * The killed run is stopped at a known place without timing: one node of the fifth layer never finishes,
 * so every node of layers 0–4 has logged its side effect. Asserted: the resumed thread ends in the state of
 * a run nobody killed; no node whose output reached the store before the kill runs again; the nodes that
 * run twice are exactly the started-but-unrecorded ones (the blocking node always among them).
 */

const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));
const child = join(packageDir, 'test', 'crash', 'dag-crash-child.ts');
let directory: string;
const children: ChildProcess[] = [];

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'weft-dag-crash-'));
});

afterEach(() => {
  for (const process of children.splice(0)) if (process.exitCode === null) process.kill('SIGKILL');
  rmSync(directory, { recursive: true, force: true });
});

/** Task ids of the nodes whose outputs were stored against the thread's head before the kill. */
async function recordedTasks(filename: string, threadId: string): Promise<Set<string>> {
  const store = new SqliteCheckpointer({ filename });
  try {
    const head = await store.get(threadId);
    expect(head?.checkpoint.source).toBe('input');
    return new Set(head?.writes.map((write) => write.taskId) ?? []);
  } finally {
    await store.close();
  }
}

it('a DAG run killed with SIGKILL resumes in a new process without re-running recorded nodes', async () => {
  const filename = join(directory, 'weft.db');
  const log = join(directory, 'side-effects.log');
  const threadId = 'dag-crash-thread';

  const first = startChild(child, [filename, log, threadId, 'start'], { cwd: packageDir, children });
  await waitForLines(log, dagLoggedBeforeKill, first.process);
  first.process.kill('SIGKILL');
  expect((await first.exited).signal).toBe('SIGKILL');
  const beforeKill = lines(log);
  expect(beforeKill).toHaveLength(dagLoggedBeforeKill);
  const recorded = await recordedTasks(filename, threadId);
  const blocking = beforeKill.find((id) => id.includes(`:${dagBlockingNode}:`));
  expect(blocking).toBeDefined();
  expect(recorded.has(blocking as string)).toBe(false);

  const second = startChild(child, [filename, log, threadId, 'resume'], { cwd: packageDir, children });
  const resumed = await second.exited;
  expect(resumed.stderr).toBe('');
  expect(resumed.code).toBe(0);

  const reference = await buildDagCrashGraph(undefined, join(directory, 'reference.log'), false).invoke({});
  expect(JSON.parse(resumed.stdout)).toEqual(reference);

  const counts = new Map<string, number>();
  for (const id of lines(log)) counts.set(id, (counts.get(id) ?? 0) + 1);
  expect(counts.size).toBe(dagCrashNodes);
  const twice = [...counts].filter(([, n]) => n > 1).map(([id]) => id);
  // Nothing recorded ran again; everything that ran again had started before the kill and ran twice.
  for (const id of recorded) expect(counts.get(id), id).toBe(1);
  expect(twice).toContain(blocking);
  for (const id of twice) {
    expect(beforeKill).toContain(id);
    expect(counts.get(id)).toBe(2);
  }
  expect(new Set([...recorded, ...twice]).size).toBe(dagLoggedBeforeKill);
  console.log(
    `DAG crash test: ${recorded.size} of ${dagLoggedBeforeKill} started nodes were recorded at the kill; ${twice.length} ran again`,
  );

  // The store holds the run's input checkpoint and its final one: nothing duplicated by the crash.
  const store = new SqliteCheckpointer({ filename });
  try {
    expect((await store.list(threadId)).map((record) => record.source)).toEqual(['loop', 'input']);
  } finally {
    await store.close();
  }
}, 600_000);
