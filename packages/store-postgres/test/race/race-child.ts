/**
 * A long-lived racer: `race-child.ts <url> <schema> <effects-log>`. Reads commands from stdin, one per
 * line: `go <thread> <decision>` resumes the paused thread with that decision; `release <thread>` lets its
 * `act` node go on. Prints one JSON line per event: `running` (its `act` node entered), `done`, or `error`
 * (with the error's code and thread).
 */
import { createInterface } from 'node:readline';
import { Command, WeftError } from '@weft/compose';
import { PostgresCheckpointer } from '../../src/postgres-checkpointer.js';
import { buildRaceGraph } from './race-graph.js';

const [connectionString, schema, effectsLog] = process.argv.slice(2);
if (!connectionString || !schema || !effectsLog)
  throw new Error('usage: race-child.ts <url> <schema> <effects-log>');
const checkpointer = new PostgresCheckpointer({ connectionString, schema });
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
