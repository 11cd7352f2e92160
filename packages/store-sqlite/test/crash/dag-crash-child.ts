/**
 * The process the DAG crash test kills: `dag-crash-child.ts <db> <log> <threadId> start|resume`. Starts
 * the DAG crash graph on a SQLite file (blocking at one node, so the test kills it there) or resumes it,
 * and prints the final state as JSON.
 */
import { SqliteCheckpointer } from '../../src/sqlite-checkpointer.js';
import { buildDagCrashGraph } from './dag-crash-graph.js';

const [filename, sideEffectLog, threadId, mode] = process.argv.slice(2);
if (!filename || !sideEffectLog || !threadId || (mode !== 'start' && mode !== 'resume')) {
  throw new Error('usage: dag-crash-child.ts <db> <log> <threadId> start|resume');
}
const checkpointer = new SqliteCheckpointer({ filename });
const app = buildDagCrashGraph(checkpointer, sideEffectLog, mode === 'start');
const output = await app.invoke(mode === 'start' ? {} : null, { threadId });
await checkpointer.close();
process.stdout.write(JSON.stringify(output));
