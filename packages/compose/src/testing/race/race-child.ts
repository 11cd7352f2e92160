import { createInterface } from 'node:readline';
import type { Checkpointer } from '../../checkpoint/checkpointer.js';
import { WeftError } from '../../errors/weft-error.js';
import { Command } from '../../vocabulary/command.js';
import { buildRaceGraph, buildTickGraph } from './race-graphs.js';

/**
 * The body of a store's race child process (the script `describeMultiProcessRace` starts). `args` are the
 * arguments after the store's own:
 * - `race <effects-log>`: a long-lived racer reading commands from stdin, one per line: `go <thread>
 *   <decision>` resumes the paused thread with that decision, `release <thread>` lets its `act` node go on.
 *   It prints one JSON line per event: `running` (its `act` node entered), `done`, or `error` (with the
 *   error's code and thread), and closes the store when stdin ends.
 * - `skew <effects-log> <thread> <clock-ms>`: sets this process's clock to read `clock-ms` (epoch ms) at its
 *   start, and run on from there, before the store is opened (so before the engine makes any id); runs one
 *   turn (`{ turn: 2 }`) of the tick graph and prints its output as JSON. An absolute reading, not an
 *   offset: how long the child took to start cannot move it past the clock it must lag.
 *
 * @param open - Opens the store under test (called once, after any clock shift).
 * @param args - The role and its arguments, as above.
 *
 * @example
 * ```ts
 * // packages/my-store/test/race/race-child.ts
 * import type { Checkpointer } from '@weft/compose';
 * import { runRaceChild } from '@weft/compose/testing';
 * // your store's checkpointer over a file, opened in this child process
 * declare const MyCheckpointer: new (options: { filename: string }) => Checkpointer;
 *
 * const [filename, ...args] = process.argv.slice(2);
 * if (!filename) throw new Error('usage: child <database file> <case arguments…>');
 * await runRaceChild(() => new MyCheckpointer({ filename }), args);
 * ```
 */
export async function runRaceChild(open: () => Checkpointer, args: readonly string[]): Promise<void> {
  const [role, effectsLog, threadId, clock] = args;
  if (role === 'skew' && effectsLog && threadId && clock !== undefined) {
    const realNow = Date.now.bind(Date);
    const shift = Number(clock) - realNow();
    Date.now = () => realNow() + shift;
    const checkpointer = open();
    const output = await buildTickGraph(checkpointer, effectsLog).invoke({ turn: 2 }, { threadId });
    await checkpointer.close?.();
    process.stdout.write(JSON.stringify(output));
    return;
  }
  if (role !== 'race' || !effectsLog)
    throw new Error(
      `race child: expected "race <effects-log>" or "skew <effects-log> <thread> <clock-ms>", got "${args.join(' ')}"`,
    );
  const checkpointer = open();
  const releases = new Map<string, () => void>();
  const say = (event: Record<string, unknown>): void => {
    process.stdout.write(`${JSON.stringify(event)}\n`);
  };
  const app = buildRaceGraph(checkpointer, effectsLog, (thread) => {
    say({ event: 'running', thread });
    return new Promise((resolve) => releases.set(thread, resolve));
  });
  for await (const line of createInterface({ input: process.stdin })) {
    const [command, thread = '', decision = ''] = line.split(' ');
    if (command === 'release') releases.get(thread)?.();
    if (command !== 'go') continue;
    app.invoke(new Command({ resume: decision }), { threadId: thread }).then(
      () => say({ event: 'done', thread }),
      (error: unknown) =>
        say({
          event: 'error',
          thread,
          code: WeftError.isInstance(error) ? error.code : String(error),
          errorThread: (error as { threadId?: unknown }).threadId,
        }),
    );
  }
  await checkpointer.close?.();
}
