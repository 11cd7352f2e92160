/**
 * The SQLite race child: `race-child.ts <db> <role> …` (roles as `runRaceChild` describes them).
 */
import { runRaceChild } from '@weft/compose/testing';
import { SqliteCheckpointer } from '../../src/sqlite-checkpointer.js';

const [filename, ...args] = process.argv.slice(2);
if (!filename) throw new Error('usage: race-child.ts <db> <role> …');
await runRaceChild(() => new SqliteCheckpointer({ filename }), args);
