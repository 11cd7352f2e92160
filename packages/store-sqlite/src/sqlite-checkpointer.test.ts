import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WeftError } from '@weft/compose';
import type { CheckpointRecord } from '@weft/compose/store';
import { describeCheckpointerConformance } from '@weft/compose/testing';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SQLITE_SCHEMA_VERSION } from './migrations.js';
import { SqliteCheckpointer } from './sqlite-checkpointer.js';

describeCheckpointerConformance('SqliteCheckpointer in memory', async () => ({
  checkpointer: new SqliteCheckpointer(),
}));

describeCheckpointerConformance('SqliteCheckpointer on a file', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'weft-sqlite-'));
  return {
    checkpointer: new SqliteCheckpointer({ filename: join(directory, 'weft.db') }),
    cleanup: async () => rmSync(directory, { recursive: true, force: true }),
  };
});

function record(id: string, overrides: Partial<CheckpointRecord> = {}): CheckpointRecord {
  return {
    threadId: 't1',
    ns: '',
    id,
    seq: Number(id),
    parentId: null,
    baseId: id,
    step: 0,
    source: 'loop',
    createdAt: '2024-01-01T00:00:00.000Z',
    metadata: { step: 0 },
    payload: `payload-${id}`,
    ...overrides,
  };
}

describe('SqliteCheckpointer', () => {
  let directory: string;
  let filename: string;

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'weft-sqlite-'));
    filename = join(directory, 'weft.db');
  });

  afterEach(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  it('keeps checkpoints in the file across reopening', async () => {
    const first = new SqliteCheckpointer({ filename });
    await first.put(record('0001'));
    await first.putWrites({ threadId: 't1', ns: '', checkpointId: '0001', taskId: 'a', payload: 'w' });
    await first.close();
    const second = new SqliteCheckpointer({ filename });
    expect(await second.get('t1')).toEqual({
      checkpoint: record('0001'),
      writes: [{ threadId: 't1', ns: '', checkpointId: '0001', taskId: 'a', payload: 'w' }],
    });
    await second.close();
  });

  it('opens the file in WAL mode with synchronous=NORMAL and records the schema version', async () => {
    const store = new SqliteCheckpointer({ filename });
    await store.close();
    const db = new BetterSqlite3(filename);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('user_version', { simple: true })).toBe(SQLITE_SCHEMA_VERSION);
    const indexes = db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name")
      .all()
      .map((row) => row.name);
    expect(indexes).toContain('weft_checkpoints_seq');
    expect(indexes).not.toContain('weft_checkpoints_base');
    db.close();
    const shared = new BetterSqlite3(filename);
    const onShared = new SqliteCheckpointer({ database: shared });
    expect(shared.pragma('synchronous', { simple: true })).toBe(1);
    await onShared.close();
    shared.close();
  });

  it('uses the indexes for latest, before, id and baseId lookups', async () => {
    const db = new BetterSqlite3(':memory:');
    new SqliteCheckpointer({ database: db });
    const plan = (sql: string): string =>
      db
        .prepare<[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
        .all()
        .map((row) => row.detail)
        .join('; ');
    const base = "SELECT * FROM weft_checkpoints WHERE thread_id = 't' AND ns = ''";
    expect(plan(`${base} ORDER BY seq DESC LIMIT 1`)).toMatch(/USING INDEX weft_checkpoints_seq/);
    expect(plan(`${base} AND seq < 7 ORDER BY seq DESC`)).not.toMatch(/TEMP B-TREE/);
    expect(plan(`${base} AND id = 'x'`)).toMatch(/USING INDEX sqlite_autoindex_weft_checkpoints_1/);
    // The deltas built on a snapshot: a range of the seq index from the snapshot's position, no sort.
    const built = `${base} AND seq >= coalesce((SELECT b.seq FROM weft_checkpoints b WHERE b.thread_id = 't' AND b.ns = '' AND b.id = 'b'), 0) AND base_id = 'b' ORDER BY seq DESC`;
    expect(plan(built)).toMatch(
      /SEARCH weft_checkpoints USING INDEX weft_checkpoints_seq \(thread_id=\? AND ns=\? AND seq>\?\)/,
    );
    expect(plan(built)).not.toMatch(/TEMP B-TREE/);
    db.close();
  });

  it('does not migrate twice and refuses a file from a newer version', async () => {
    await new SqliteCheckpointer({ filename }).close();
    const again = new SqliteCheckpointer({ filename });
    await again.put(record('0001'));
    await again.close();
    const db = new BetterSqlite3(filename);
    db.pragma(`user_version = ${SQLITE_SCHEMA_VERSION + 1}`);
    db.close();
    expect(() => new SqliteCheckpointer({ filename })).toThrow(
      /newer than this @weft\/store-sqlite supports/,
    );
  });

  it('leaves a database it did not open open, and reports duplicates as CHECKPOINT errors', async () => {
    const db = new BetterSqlite3(':memory:');
    const store = new SqliteCheckpointer({ database: db });
    await store.put(record('0001'));
    const error = await store.put(record('0001')).catch((caught: unknown) => caught);
    expect(WeftError.isInstance(error) && error.code).toBe('CHECKPOINT');
    await store.close();
    expect(db.open).toBe(true);
    db.close();
  });

  it('reports corrupt metadata JSON as a CheckpointCorruptError naming the checkpoint, not a SyntaxError', async () => {
    const db = new BetterSqlite3(':memory:');
    const store = new SqliteCheckpointer({ database: db });
    await store.put(record('0001'));
    db.prepare(`UPDATE weft_checkpoints SET metadata = '{"step": 0,' WHERE id = '0001'`).run();
    for (const read of [() => store.get('t1'), () => store.list('t1')]) {
      const error = await read().catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 'CHECKPOINT_CORRUPT', kind: 'encoding', checkpointId: '0001' });
      expect((error as Error).message).toMatch(
        /checkpoint "0001" of thread "t1" is corrupt: its metadata is not JSON/,
      );
    }
    await store.close();
    db.close();
  });
});
