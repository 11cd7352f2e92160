/** The SQLite DAG crash child: `dag-crash-child.ts <db> <log> <thread> start|resume` (see `runDagCrashChild`). */
import { runDagCrashChild } from '@weft/compose/testing';
import { SqliteCheckpointer } from '../../src/sqlite-checkpointer.js';

const [filename, ...args] = process.argv.slice(2);
if (!filename) throw new Error('usage: dag-crash-child.ts <db> <log> <thread> start|resume');
await runDagCrashChild(() => new SqliteCheckpointer({ filename }), args);
