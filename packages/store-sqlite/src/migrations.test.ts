import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { SQLITE_SCHEMA_VERSION } from './migrations.js';
import { SqliteCheckpointer } from './sqlite-checkpointer.js';

let directory: string;
let filename: string;

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'weft-sqlite-migrate-'));
  filename = join(directory, 'weft.db');
});

afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

/**
 * A database as schema version 2 wrote it: checkpoints without `seq`, ordered by their ids, and a
 * session without a status.
 */
function writeVersion2(): void {
  const db = new BetterSqlite3(filename);
  db.exec(`
    CREATE TABLE weft_checkpoints (
      thread_id TEXT NOT NULL, ns TEXT NOT NULL, id TEXT NOT NULL, parent_id TEXT, base_id TEXT NOT NULL,
      step INTEGER NOT NULL, source TEXT NOT NULL, created_at TEXT NOT NULL, metadata TEXT NOT NULL,
      payload TEXT NOT NULL, PRIMARY KEY (thread_id, ns, id)
    );
    CREATE INDEX weft_checkpoints_base ON weft_checkpoints (thread_id, ns, base_id, id);
    CREATE TABLE weft_checkpoint_writes (
      seq INTEGER PRIMARY KEY, thread_id TEXT NOT NULL, ns TEXT NOT NULL, checkpoint_id TEXT NOT NULL,
      task_id TEXT NOT NULL, payload TEXT NOT NULL, UNIQUE (thread_id, ns, checkpoint_id, task_id)
    );
    CREATE TABLE weft_sessions (
      app_name TEXT NOT NULL, user_id TEXT NOT NULL, session_id TEXT NOT NULL, created_at REAL NOT NULL,
      last_update_time REAL NOT NULL, PRIMARY KEY (app_name, user_id, session_id)
    );
    INSERT INTO weft_sessions VALUES ('app', 'u1', 's1', 1000, 2000);
  `);
  const insert = db.prepare(
    `INSERT INTO weft_checkpoints VALUES (?, ?, ?, ?, ?, 0, 'loop', '2024-01-01T00:00:00.000Z', '{}', '{}')`,
  );
  for (const [thread, ns, id, parent] of [
    ['t1', '', 'c', 'b'],
    ['t1', '', 'a', null],
    ['t1', '', 'b', 'a'],
    ['t1', 'outer:1', 'x', null],
    ['t2', '', 'z', null],
  ] as const)
    insert.run(thread, ns, id, parent, id);
  db.pragma('user_version = 2');
  db.close();
}

it('gives the checkpoints of an existing database their positions in the old id order', async () => {
  writeVersion2();
  const store = new SqliteCheckpointer({ filename });
  try {
    expect((await store.list('t1')).map((record) => [record.id, record.seq])).toEqual([
      ['c', 3],
      ['b', 2],
      ['a', 1],
    ]);
    expect((await store.get('t1', { ns: 'outer:1' }))?.checkpoint.seq).toBe(1);
    expect((await store.get('t2'))?.checkpoint.seq).toBe(1);
    // The engine continues the thread at the next position; the old positions are taken.
    const head = (await store.get('t1'))!.checkpoint;
    // Rows written before checksums have none (the engine loads them unchecked); new rows keep theirs.
    expect(head).not.toHaveProperty('checksum');
    await store.put({ ...head, id: 'd', parentId: 'c', seq: 4, checksum: 'sha256:00' });
    expect((await store.get('t1'))?.checkpoint.checksum).toBe('sha256:00');
    await expect(store.put({ ...head, id: 'e', parentId: 'c', seq: 4 })).rejects.toMatchObject({
      code: 'CHECKPOINT_CONFLICT',
    });
    expect((await store.get('t1'))?.checkpoint.id).toBe('d');
  } finally {
    await store.close();
  }
  const db = new BetterSqlite3(filename);
  expect(db.pragma('user_version', { simple: true })).toBe(SQLITE_SCHEMA_VERSION);
  // Schema 6: an existing session is idle since its last update, with no turns counted.
  expect(db.prepare('SELECT status, status_time, turns FROM weft_sessions').get()).toEqual({
    status: 'idle',
    status_time: 2000,
    turns: 0,
  });
  db.close();
});

it('drops the base_id index of a schema 6 file, and still lists the deltas built on each snapshot', async () => {
  const first = new SqliteCheckpointer({ filename });
  const bases = { a: 'a', b: 'a', c: 'a', d: 'd', e: 'd', f: 'a' };
  let seq = 0;
  for (const [id, baseId] of Object.entries(bases)) {
    await first.put({
      threadId: 't1',
      ns: '',
      id,
      seq: ++seq,
      parentId: null,
      baseId,
      step: seq,
      source: 'loop',
      createdAt: '2024-01-01T00:00:00.000Z',
      metadata: {},
      payload: '{}',
    });
  }
  await first.close();
  // Back to what schema 6 wrote: the index present, the version 6.
  const old = new BetterSqlite3(filename);
  old.exec('CREATE INDEX weft_checkpoints_base ON weft_checkpoints (thread_id, ns, base_id, id)');
  old.exec('ALTER TABLE weft_thread_claims DROP COLUMN epoch');
  old.exec('ALTER TABLE weft_thread_claims DROP COLUMN owner');
  old.pragma('user_version = 6');
  old.close();

  const store = new SqliteCheckpointer({ filename });
  try {
    const ids = async (baseId: string) => (await store.list('t1', { baseId })).map((record) => record.id);
    expect(await ids('a')).toEqual(['f', 'c', 'b', 'a']);
    expect(await ids('d')).toEqual(['e', 'd']);
    expect(await ids('missing')).toEqual([]);
  } finally {
    await store.close();
  }
  const db = new BetterSqlite3(filename);
  expect(db.pragma('user_version', { simple: true })).toBe(SQLITE_SCHEMA_VERSION);
  const indexes = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'weft_checkpoints'")
    .pluck()
    .all();
  expect(indexes).not.toContain('weft_checkpoints_base');
  db.close();
});
