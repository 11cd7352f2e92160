import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  buildDagCrashGraph,
  dagBlockingNode,
  dagCrashNodes,
  dagLoggedBeforeKill,
} from './crash/dag-crash-graph.js';
import type { SharedStoreFixture } from './multi-process-race.js';

/** Options of {@link describeDagCrashResume}. */
export interface DagCrashResumeOptions {
  /** The suite's name (the store's). */
  readonly name: string;
  /** The store's child script: parses its own arguments, then calls `runDagCrashChild` with the rest. */
  readonly childScript: string;
  /** The package folder the child runs in (where `tsx` resolves). */
  readonly cwd: string;
  /** Makes a fresh store shared by the test and its child processes. */
  readonly fixture: () => Promise<SharedStoreFixture>;
  /** Skips the suite (e.g. no server configured). */
  readonly skip?: boolean;
}

interface Exit {
  readonly code: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
}

function lines(file: string): string[] {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
}

/**
 * Registers the SIGKILL crash test of DAG mode (ADR 023) against a store: a child process runs a layered
 * DAG (8 layers × 3 nodes, each joining the layer before) until one node of the fifth layer blocks
 * forever — every node of layers 0–4 has logged its side effect, so the kill lands at a known place without
 * timing — and is killed with SIGKILL; a second process continues the thread with `null`. Asserted: the
 * final state equals a run nobody killed; no node whose output reached the store before the kill runs
 * again; the nodes that run twice are exactly the started-but-unrecorded ones (the blocking node among
 * them); the store holds the run's input and final checkpoints only.
 *
 * @example
 * ```ts
 * // packages/my-store/test/crash.test.ts — `MyCheckpointer` is your store's checkpointer over a file
 * import { mkdtempSync } from 'node:fs';
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 * import { fileURLToPath } from 'node:url';
 * import type { Checkpointer } from '@weft/compose';
 * import { describeDagCrashResume } from '@weft/compose/testing';
 * declare const MyCheckpointer: new (options: { filename: string }) => Checkpointer;
 *
 * const packageDir = fileURLToPath(new URL('..', import.meta.url));
 * describeDagCrashResume({
 *   name: 'MyCheckpointer',
 *   childScript: join(packageDir, 'test', 'crash', 'dag-crash-child.ts'),
 *   cwd: packageDir,
 *   fixture: async () => {
 *     const filename = join(mkdtempSync(join(tmpdir(), 'crash-')), 'weft.db');
 *     return { open: () => new MyCheckpointer({ filename }), childArgs: [filename] };
 *   },
 * });
 * ```
 */
export function describeDagCrashResume(options: DagCrashResumeOptions): void {
  describe.skipIf(options.skip === true)(`${options.name}: a DAG run killed with SIGKILL`, () => {
    let directory: string;
    let store: SharedStoreFixture;
    const children: ChildProcess[] = [];

    beforeEach(async () => {
      directory = mkdtempSync(join(tmpdir(), 'weft-dag-crash-'));
      store = await options.fixture();
    });

    afterEach(async () => {
      for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(directory, { recursive: true, force: true });
      await store.cleanup?.();
    });

    const start = (args: readonly string[]) => {
      const child = spawn(
        'node',
        ['--conditions=@weft/source', '--import', 'tsx', options.childScript, ...store.childArgs, ...args],
        { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      children.push(child);
      let stdout = '';
      let stderr = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      child.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const exited = new Promise<Exit>((resolve) => {
        child.on('exit', (code, signal) => setImmediate(() => resolve({ code, signal, stdout, stderr })));
      });
      return { child, exited };
    };

    /** Waits until the log has `count` lines; fails if the child exits first (no wall-clock deadline). */
    const waitForLines = async (file: string, count: number, child: ChildProcess): Promise<void> => {
      while (lines(file).length < count) {
        if (child.exitCode !== null || child.signalCode !== null)
          throw new Error(`the child exited before the side-effect log reached ${count} lines`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };

    it('resumes in a new process without re-running recorded nodes', async () => {
      const log = join(directory, 'side-effects.log');
      const threadId = `dag-crash-${process.pid}-${Date.now().toString(36)}`;
      const first = start([log, threadId, 'start']);
      await waitForLines(log, dagLoggedBeforeKill, first.child);
      first.child.kill('SIGKILL');
      expect((await first.exited).signal).toBe('SIGKILL');
      const beforeKill = lines(log);
      expect(beforeKill).toHaveLength(dagLoggedBeforeKill);
      const checkpointer = store.open();
      const head = await checkpointer.get(threadId);
      await checkpointer.close?.();
      expect(head?.checkpoint.source).toBe('input');
      const recorded = new Set(head?.writes.map((write) => write.taskId) ?? []);
      const blocking = beforeKill.find((id) => id.includes(`:${dagBlockingNode}:`));
      expect(blocking).toBeDefined();
      expect(recorded.has(blocking as string)).toBe(false);

      const resumed = await start([log, threadId, 'resume']).exited;
      expect(resumed.stderr).toBe('');
      expect(resumed.code).toBe(0);
      const reference = await buildDagCrashGraph(undefined, join(directory, 'reference.log'), false).invoke(
        {},
      );
      expect(JSON.parse(resumed.stdout)).toEqual(reference);

      const counts = new Map<string, number>();
      for (const id of lines(log)) counts.set(id, (counts.get(id) ?? 0) + 1);
      expect(counts.size).toBe(dagCrashNodes);
      const twice = [...counts].filter(([, n]) => n > 1).map(([id]) => id);
      for (const id of recorded) expect(counts.get(id), id).toBe(1);
      expect(twice).toContain(blocking);
      for (const id of twice) {
        expect(beforeKill).toContain(id);
        expect(counts.get(id)).toBe(2);
      }
      expect(new Set([...recorded, ...twice]).size).toBe(dagLoggedBeforeKill);
      const after = store.open();
      try {
        expect((await after.list(threadId)).map((record) => record.source)).toEqual(['loop', 'input']);
      } finally {
        await after.close?.();
      }
    }, 600_000);
  });
}
