/** The PostgreSQL DAG crash child: `dag-crash-child.ts <url> <schema> <log> <thread> start|resume`. */
import { runDagCrashChild } from '@weft/compose/testing';
import { PostgresCheckpointer } from '../../src/postgres-checkpointer.js';

const [connectionString, schema, ...args] = process.argv.slice(2);
if (!connectionString || !schema)
  throw new Error('usage: dag-crash-child.ts <url> <schema> <log> <thread> start|resume');
await runDagCrashChild(() => new PostgresCheckpointer({ connectionString, schema }), args);
