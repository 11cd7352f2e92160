import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryCheckpointer } from '@weft/compose';
import { describeDurabilityMatrix } from '@weft/compose/testing';
import { SqliteCheckpointer } from '../src/sqlite-checkpointer.js';

describeDurabilityMatrix('MemoryCheckpointer', async () => ({ checkpointer: new MemoryCheckpointer() }), {
  durability: ['sync', 'async', 'exit'],
});

describeDurabilityMatrix('SqliteCheckpointer on a file', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'weft-matrix-'));
  return {
    checkpointer: new SqliteCheckpointer({ filename: join(directory, 'weft.db') }),
    cleanup: async () => rmSync(directory, { recursive: true, force: true }),
  };
});
