import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeMigrationConformance, describeRetentionConformance } from '@weft/compose/testing';
import { SqliteCheckpointer } from './sqlite-checkpointer.js';

describeRetentionConformance('SqliteCheckpointer on a file', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'weft-sqlite-retention-'));
  return {
    checkpointer: new SqliteCheckpointer({ filename: join(directory, 'weft.db') }),
    cleanup: async () => rmSync(directory, { recursive: true, force: true }),
  };
});

describeMigrationConformance('SqliteCheckpointer in memory', async () => ({
  checkpointer: new SqliteCheckpointer(),
}));
