import type { Checkpointer } from '../../checkpoint/checkpointer.js';
import { buildEffectKillGraph, type EffectKillPoint, effectKillPoints } from './effect-kill-graph.js';

/**
 * The body of a store's effect crash child process (the script `describeEffectKillMatrix` starts).
 * `args` are the arguments after the store's own: `<external-system-url> <thread> <kill-point>|resume`.
 * With a kill point it starts the order and kills itself there; `resume` continues the thread with
 * `null` and prints the final state as JSON.
 *
 * @param open - Opens the store under test.
 * @param args - The external system's URL, the thread id and the kill point (or `resume`), as above.
 *
 * @example
 * ```ts
 * // packages/my-store/test/crash/effect-kill-child.ts
 * import type { Checkpointer } from '@weft/compose';
 * import { runEffectKillChild } from '@weft/compose/testing';
 * declare const MyCheckpointer: new (options: { filename: string }) => Checkpointer;
 *
 * const [filename, ...args] = process.argv.slice(2);
 * if (!filename) throw new Error('usage: child <database file> <case arguments…>');
 * await runEffectKillChild(() => new MyCheckpointer({ filename }), args);
 * ```
 */
export async function runEffectKillChild(open: () => Checkpointer, args: readonly string[]): Promise<void> {
  const [base, threadId, role] = args;
  const kill = effectKillPoints.find((point) => point === role);
  if (!base || !threadId || (role !== 'resume' && !kill)) {
    throw new Error(`usage: <store args…> <url> <thread> ${effectKillPoints.join('|')}|resume`);
  }
  const point: EffectKillPoint = kill ?? 'none';
  const checkpointer = open();
  const app = buildEffectKillGraph(checkpointer, base, point);
  const output = await app.invoke(point === 'none' ? null : { order: threadId }, { threadId });
  await checkpointer.close?.();
  process.stdout.write(JSON.stringify(output));
}
