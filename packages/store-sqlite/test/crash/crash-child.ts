/**
 * The process the crash test kills: `crash-child.ts <db> <log> <threadId> start|resume`. Runs (or resumes)
 * the crash graph on a SQLite file and prints the final state as JSON.
 */
import { SqliteCheckpointer } from '../../src/sqlite-checkpointer.js';
import { buildCrashGraph } from './crash-graph.js';

const [filename, sideEffectLog, threadId, mode] = process.argv.slice(2);
if (!filename || !sideEffectLog || !threadId || (mode !== 'start' && mode !== 'resume')) {
  throw new Error('usage: crash-child.ts <db> <log> <threadId> start|resume');
}
const checkpointer = new SqliteCheckpointer({ filename });
const app = buildCrashGraph(checkpointer, sideEffectLog, 20);
const output = await app.invoke(mode === 'start' ? {} : null, { threadId });
await checkpointer.close();
process.stdout.write(JSON.stringify(output));
