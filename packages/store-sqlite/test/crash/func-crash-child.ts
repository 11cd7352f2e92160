/**
 * The process the functional crash test kills: `func-crash-child.ts <db> <log> <marker> <threadId>
 * start <stopAfter> | resume`. `start` runs the workflow on a SQLite file and, once step `stopAfter`
 * returned (its result stored), writes `marker` and blocks until the test kills it; `resume` continues
 * the thread (`invoke(null)`) and prints the result as JSON.
 */
import { SqliteCheckpointer } from '../../src/sqlite-checkpointer.js';
import { appendDurably } from './crash-graph.js';
import { buildFunctionalCrashWorkflow } from './func-crash-workflow.js';

const [filename, sideEffectLog, marker, threadId, mode, stopAfter] = process.argv.slice(2);
if (!filename || !sideEffectLog || !marker || !threadId || (mode !== 'start' && mode !== 'resume')) {
  throw new Error('usage: func-crash-child.ts <db> <log> <marker> <threadId> start <stopAfter> | resume');
}
const checkpointer = new SqliteCheckpointer({ filename });
const blockAfter = mode === 'start' ? Number(stopAfter) : -1;
const app = buildFunctionalCrashWorkflow(checkpointer, sideEffectLog, (step) => {
  if (step !== blockAfter) return undefined;
  appendDurably(marker, `stored step ${step}`);
  // Blocks for good (a timer keeps the process alive): the test kills it here, between two tasks.
  setInterval(() => undefined, 1 << 30);
  return new Promise<void>(() => undefined);
});
const output = await app.invoke(mode === 'start' ? 3 : null, { threadId });
await checkpointer.close();
process.stdout.write(JSON.stringify(output));
