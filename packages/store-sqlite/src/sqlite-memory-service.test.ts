import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  describeMemoryServiceConformance,
  describeRunnerServicesConformance,
} from '@weft/adk/testing/conformance';
import { SqliteStore } from './sqlite-store.js';

describeMemoryServiceConformance('SqliteStore in memory', async (options) => ({
  store: new SqliteStore(options),
}));

describeMemoryServiceConformance('SqliteStore on a file', async (options) => {
  const directory = mkdtempSync(join(tmpdir(), 'weft-sqlite-memory-'));
  return {
    store: new SqliteStore({ ...options, filename: join(directory, 'weft.db') }),
    cleanup: async () => rmSync(directory, { recursive: true, force: true }),
  };
});

describeRunnerServicesConformance('SqliteStore on a file', async (options) => {
  const directory = mkdtempSync(join(tmpdir(), 'weft-sqlite-runner-'));
  return {
    store: new SqliteStore({ ...options, filename: join(directory, 'weft.db') }),
    cleanup: async () => rmSync(directory, { recursive: true, force: true }),
  };
});
