/**
 * A process whose clock is behind: `skew-child.ts <db> <effects-log> <thread> <offset-ms>`. Shifts
 * `Date.now` by the offset before the engine makes any id, then runs one turn of the tick graph.
 */
const [filename, effectsLog, threadId, offset] = process.argv.slice(2);
if (!filename || !effectsLog || !threadId || offset === undefined)
  throw new Error('usage: skew-child.ts <db> <effects-log> <thread> <offset-ms>');
const realNow = Date.now.bind(Date);
Date.now = () => realNow() + Number(offset);
const { SqliteCheckpointer } = await import('../../src/sqlite-checkpointer.js');
const { buildTickGraph } = await import('./race-graph.js');
const checkpointer = new SqliteCheckpointer({ filename });
const output = await buildTickGraph(checkpointer, effectsLog).invoke({ turn: 2 }, { threadId });
await checkpointer.close();
process.stdout.write(JSON.stringify(output));
