import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentEvent } from '@weft/adk';
import { describeSessionServiceConformance } from '@weft/adk/testing/conformance';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SQLITE_SCHEMA_VERSION } from './migrations.js';
import { SqliteCheckpointer } from './sqlite-checkpointer.js';
import { SqliteSessionService } from './sqlite-session-service.js';

describeSessionServiceConformance('SqliteSessionService in memory', async () => {
  const checkpointer = new SqliteCheckpointer();
  return { service: new SqliteSessionService(), checkpointer, cleanup: async () => checkpointer.close() };
});

describeSessionServiceConformance('SqliteSessionService on a file', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'weft-sqlite-sessions-'));
  const checkpointer = new SqliteCheckpointer({ filename: join(directory, 'weft.db') });
  return {
    service: new SqliteSessionService({ filename: join(directory, 'weft.db') }),
    checkpointer,
    cleanup: async () => {
      await checkpointer.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
});

function event(id: string, timestamp: number, stateDelta: Record<string, unknown>): AgentEvent {
  return { id, invocationId: 'i1', author: 'agent', timestamp, actions: { stateDelta } };
}

describe('SqliteSessionService', () => {
  let directory: string;
  let filename: string;

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'weft-sqlite-sessions-'));
    filename = join(directory, 'weft.db');
  });

  afterEach(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  it('keeps sessions, events and all scopes in the file across reopening', async () => {
    const first = new SqliteSessionService({ filename });
    const key = { appName: 'app', userId: 'u1', sessionId: 's1' };
    await first.create({ ...key, state: { 'app:a': 1 } });
    await first.appendEvent(key, event('0001', Date.now() + 1000, { 'user:b': 2, c: 3, 'temp:d': 4 }));
    await first.close();
    const second = new SqliteSessionService({ filename });
    const loaded = await second.get(key);
    expect(loaded?.state).toEqual({ 'app:a': 1, 'user:b': 2, c: 3 });
    expect(loaded?.events.map((item) => item.actions.stateDelta)).toEqual([{ 'user:b': 2, c: 3 }]);
    await second.close();
  });

  it('shares one file with the checkpointer, in one schema version', async () => {
    const db = new BetterSqlite3(filename);
    const checkpointer = new SqliteCheckpointer({ database: db });
    const sessions = new SqliteSessionService({ database: db });
    await sessions.create({ appName: 'app', userId: 'u1', sessionId: 's1' });
    expect(await checkpointer.get('thread-1')).toBeUndefined();
    expect(db.pragma('user_version', { simple: true })).toBe(SQLITE_SCHEMA_VERSION);
    const tables = db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all()
      .map((row) => row.name);
    expect(tables).toEqual([
      'weft_app_state',
      'weft_checkpoint_writes',
      'weft_checkpoints',
      'weft_session_events',
      'weft_session_state',
      'weft_sessions',
      'weft_store',
      'weft_thread_claims',
      'weft_user_state',
    ]);
    await sessions.close();
    await checkpointer.close();
    expect(db.open).toBe(true);
    db.close();
  });

  it('keeps a tombstone row for a deleted key, stamped with the deleting event', async () => {
    const db = new BetterSqlite3(':memory:');
    const sessions = new SqliteSessionService({ database: db });
    const key = { appName: 'app', userId: 'u1', sessionId: 's1' };
    await sessions.create({ ...key, state: { gone: 1 } });
    const at = Date.now() + 1000;
    await sessions.appendEvent(key, event('0001', at, { gone: null }));
    const rows = db.prepare('SELECT key, value, written_at, written_id FROM weft_session_state').all();
    expect(rows).toEqual([{ key: 'gone', value: null, written_at: at, written_id: '0001' }]);
    db.close();
  });

  it('refuses state values that are not JSON and stores nothing of the event', async () => {
    const sessions = new SqliteSessionService();
    const key = { appName: 'app', userId: 'u1', sessionId: 's1' };
    await sessions.create(key);
    const error = await sessions
      .appendEvent(key, event('0001', Date.now(), { ok: 1, big: 10n }))
      .catch((caught: unknown) => caught);
    expect((error as { code?: unknown }).code).toBe('INVALID_ARGUMENT');
    expect(await sessions.get(key)).toMatchObject({ state: {}, events: [] });
    await sessions.close();
  });

  it('commits appends from two connections to one file', async () => {
    const first = new SqliteSessionService({ filename });
    const second = new SqliteSessionService({ filename });
    const key = { appName: 'app', userId: 'u1', sessionId: 's1' };
    await first.create(key);
    const at = Date.now() + 1000;
    await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        (index % 2 === 0 ? first : second).appendEvent(
          key,
          event(`e${index}`, at + index, { [`k${index}`]: index }),
        ),
      ),
    );
    const loaded = await second.get(key);
    expect(Object.keys(loaded?.state ?? {})).toHaveLength(20);
    expect(loaded?.events).toHaveLength(20);
    await first.close();
    await second.close();
  });

  it('uses the indexes for event order and listings', () => {
    const db = new BetterSqlite3(':memory:');
    new SqliteSessionService({ database: db });
    const plan = (sql: string): string =>
      db
        .prepare<[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
        .all()
        .map((row) => row.detail)
        .join('; ');
    const events = plan(
      "SELECT payload FROM weft_session_events WHERE app_name = 'a' AND user_id = 'u' AND session_id = 's' ORDER BY seq DESC LIMIT 5",
    );
    expect(events).toMatch(/USING INDEX weft_session_events_order/);
    expect(events).not.toMatch(/TEMP B-TREE/);
    const list = plan(
      "SELECT * FROM weft_sessions WHERE app_name = 'a' AND user_id = 'u' ORDER BY last_update_time DESC",
    );
    expect(list).toMatch(/USING INDEX weft_sessions_recent/);
    db.close();
  });
});
