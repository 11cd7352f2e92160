/** The SQLite effect crash child: `effect-kill-child.ts <db> <url> <thread> <kill-point>|resume` (see `runEffectKillChild`). */
import { runEffectKillChild } from '@weft/compose/testing';
import { SqliteCheckpointer } from '../../src/sqlite-checkpointer.js';

const [filename, ...args] = process.argv.slice(2);
if (!filename) throw new Error('usage: effect-kill-child.ts <db> <url> <thread> <kill-point>|resume');
await runEffectKillChild(() => new SqliteCheckpointer({ filename }), args);
