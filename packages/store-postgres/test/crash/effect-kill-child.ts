/** The PostgreSQL effect crash child: `effect-kill-child.ts <pg-url> <schema> <url> <thread> <kill-point>|resume`. */
import { runEffectKillChild } from '@weft/compose/testing';
import { PostgresCheckpointer } from '../../src/postgres-checkpointer.js';

const [connectionString, schema, ...args] = process.argv.slice(2);
if (!connectionString || !schema)
  throw new Error('usage: effect-kill-child.ts <pg-url> <schema> <url> <thread> <kill-point>|resume');
await runEffectKillChild(() => new PostgresCheckpointer({ connectionString, schema }), args);
