/**
 * The PostgreSQL race child: `race-child.ts <url> <schema> <role> …` (roles as `runRaceChild` describes them).
 */
import { runRaceChild } from '@weft/compose/testing';
import { PostgresCheckpointer } from '../../src/postgres-checkpointer.js';

const [connectionString, schema, ...args] = process.argv.slice(2);
if (!connectionString || !schema) throw new Error('usage: race-child.ts <url> <schema> <role> …');
await runRaceChild(() => new PostgresCheckpointer({ connectionString, schema }), args);
