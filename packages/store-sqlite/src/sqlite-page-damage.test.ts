import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckpointCorruptError } from '@weft/compose';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { SqliteCheckpointer } from './sqlite-checkpointer.js';

let directory: string;
let filename: string;

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'weft-sqlite-damage-'));
  filename = join(directory, 'weft.db');
});

afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

const record = (threadId: string, payload: string) => ({
  threadId,
  ns: '',
  id: `${threadId}-1`,
  parentId: null,
  baseId: `${threadId}-1`,
  seq: 1,
  step: 0,
  source: 'input' as const,
  createdAt: '2024-01-01T00:00:00.000Z',
  metadata: {},
  payload,
});

/**
 * Issue #52: page damage surfaced as a raw `SQLITE_CORRUPT`. A damaged overflow page of one thread's
 * checkpoint is now the one corruption error naming the thread and checkpoint, and the other thread of
 * the file still loads.
 */
it('page damage under one checkpoint is a CheckpointCorruptError; the rest of the file keeps serving', async () => {
  const marker = 'MIDDLE-OF-THE-DAMAGED-PAYLOAD';
  const big = `${'a'.repeat(30_000)}${marker}${'b'.repeat(30_000)}`;
  const setup = new SqliteCheckpointer({ filename });
  await setup.put(record('damaged', big));
  await setup.put(record('healthy', 'small'));
  await setup.close();
  // Everything in the main file, then the overflow page holding the marker gets a next-page pointer
  // past the end of the file.
  const db = new BetterSqlite3(filename);
  db.pragma('journal_mode = DELETE');
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  db.close();
  const bytes = readFileSync(filename);
  const page = Math.floor(bytes.indexOf(marker) / pageSize);
  expect(page).toBeGreaterThan(0);
  bytes.writeUInt32BE(0x7fffffff, page * pageSize);
  writeFileSync(filename, bytes);

  const store = new SqliteCheckpointer({ filename });
  for (const read of [() => store.get('damaged'), () => store.list('damaged')]) {
    const error = await read().catch((caught: unknown) => caught);
    expect(CheckpointCorruptError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'CHECKPOINT_CORRUPT', kind: 'storage', threadId: 'damaged' });
    expect((error as Error).message).toMatch(/thread "damaged".*SQLITE_CORRUPT/);
  }
  expect((await store.get('healthy'))?.checkpoint.payload).toBe('small');
  await store.close();
});
