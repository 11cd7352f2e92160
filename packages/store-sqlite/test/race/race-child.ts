/**
 * A long-lived racer: `race-child.ts <db> <effects-log>`. Reads commands from stdin, one per line:
 * `go <thread> <decision>` resumes the paused thread with that decision; `release <thread>` lets its `act`
 * node go on. Prints one JSON line per event: `running` (its `act` node entered), `done`, or `error`
 * (with the error's code and thread).
 */
import { createInterface } from 'node:readline';
import { Command, WeftError } from '@weft/compose';
import { SqliteCheckpointer } from '../../src/sqlite-checkpointer.js';
import { buildRaceGraph } from './race-graph.js';

const [filename, effectsLog] = process.argv.slice(2);
if (!filename || !effectsLog) throw new Error('usage: race-child.ts <db> <effects-log>');
const checkpointer = new SqliteCheckpointer({ filename });
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
await checkpointer.close();
