import type { Checkpointer } from '../../checkpoint/checkpointer.js';
import { buildDagCrashGraph } from './dag-crash-graph.js';

/**
 * The body of a store's DAG crash child process (the script `describeDagCrashResume` starts). `args` are
 * the arguments after the store's own: `<side-effect-log> <thread> start|resume`. `start` runs the DAG
 * crash graph, which blocks at one node so the test kills the process there; `resume` continues the thread
 * with `null` and prints the final state as JSON.
 *
 * @param open - Opens the store under test.
 * @param args - The log file, the thread id and the role, as above.
 *
 * @example
 * ```ts
 * // packages/my-store/test/crash/dag-crash-child.ts
 * import type { Checkpointer } from '@weft/compose';
 * import { runDagCrashChild } from '@weft/compose/testing';
 * // your store's checkpointer over a file, opened in this child process
 * declare const MyCheckpointer: new (options: { filename: string }) => Checkpointer;
 *
 * const [filename, ...args] = process.argv.slice(2);
 * if (!filename) throw new Error('usage: child <database file> <case arguments…>');
 * await runDagCrashChild(() => new MyCheckpointer({ filename }), args);
 * ```
 */
export async function runDagCrashChild(open: () => Checkpointer, args: readonly string[]): Promise<void> {
  const [sideEffectLog, threadId, role] = args;
  if (!sideEffectLog || !threadId || (role !== 'start' && role !== 'resume')) {
    throw new Error('usage: <store args…> <side-effect-log> <thread> start|resume');
  }
  const checkpointer = open();
  const app = buildDagCrashGraph(checkpointer, sideEffectLog, role === 'start');
  const output = await app.invoke(role === 'start' ? {} : null, { threadId });
  await checkpointer.close?.();
  process.stdout.write(JSON.stringify(output));
}
