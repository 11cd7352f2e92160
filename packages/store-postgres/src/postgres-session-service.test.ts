import type { AgentEvent } from '@weft/adk';
import { AdkError } from '@weft/adk';
import { describeSessionServiceConformance } from '@weft/adk/testing/conformance';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PostgresCheckpointer } from './postgres-checkpointer.js';
import { PostgresSessionService } from './postgres-session-service.js';

const url = process.env.WEFT_PG_URL;
if (url === undefined || url === '') {
  console.warn(
    'WEFT_PG_URL is not set: skipping the PostgreSQL session service tests (set WEFT_PG_URL, e.g. postgres://postgres@127.0.0.1:5432/test)',
  );
}

// Every schema this run creates is unique to the run and dropped after its test.
const runId = `${process.pid.toString(36)}_${Date.now().toString(36)}`;
let schemaCount = 0;

function freshSchema(): string {
  schemaCount += 1;
  return `weft_sessions_test_${runId}_${schemaCount}`;
}

function event(id: string, timestamp: number, stateDelta: Record<string, unknown>): AgentEvent {
  return { id, invocationId: 'i1', author: 'agent', timestamp, actions: { stateDelta } };
}

describe.skipIf(url === undefined || url === '')('PostgresSessionService', () => {
  const connectionString = url ?? '';

  describeSessionServiceConformance('PostgresSessionService', async () => {
    const pool = new pg.Pool({ connectionString, max: 8 });
    const schema = freshSchema();
    const service = new PostgresSessionService({ pool, schema });
    await service.setup();
    const checkpointer = new PostgresCheckpointer({ pool, schema });
    await checkpointer.setup();
    return {
      service,
      checkpointer,
      cleanup: async () => {
        await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await pool.end();
      },
    };
  });

  describe('setup, processes and options', () => {
    let pool: pg.Pool;
    let schema: string;
    const key = { appName: 'app', userId: 'u1', sessionId: 's1' };

    beforeEach(() => {
      pool = new pg.Pool({ connectionString, max: 8 });
      schema = freshSchema();
    });

    afterEach(async () => {
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await pool.end();
    });

    it('shares one setup with the checkpointer: either one creates every table', async () => {
      await new PostgresCheckpointer({ pool, schema }).setup();
      const sessions = new PostgresSessionService({ pool, schema });
      await sessions.create(key);
      await sessions.setup();
      const { rows } = await pool.query(
        'SELECT tablename FROM pg_tables WHERE schemaname = $1 ORDER BY tablename',
        [schema],
      );
      expect(rows.map((row: { tablename: string }) => row.tablename)).toEqual([
        'weft_app_state',
        'weft_checkpoint_writes',
        'weft_checkpoints',
        'weft_migrations',
        'weft_session_events',
        'weft_session_state',
        'weft_sessions',
        'weft_store',
        'weft_thread_claims',
        'weft_user_state',
      ]);
    });

    it('says to call setup() when the tables are missing', async () => {
      const sessions = new PostgresSessionService({ pool, schema });
      const error = await sessions.create(key).catch((caught: unknown) => caught);
      expect(AdkError.isInstance(error) && error.code).toBe('SESSION_STORE');
      expect(String(error)).toMatch(/call await sessions.setup\(\) once before use/);
    });

    it('serializes appends to one session from separate pools (as from separate processes)', async () => {
      const pools = [
        pool,
        new pg.Pool({ connectionString, max: 8 }),
        new pg.Pool({ connectionString, max: 8 }),
      ];
      const services = pools.map((each) => new PostgresSessionService({ pool: each, schema }));
      await services[0]!.setup();
      await services[0]!.create(key);
      const other = await services[0]!.create({ ...key, sessionId: 's2' });
      const at = Date.now() + 1000;
      await Promise.all(
        Array.from({ length: 60 }, (_, index) =>
          services[index % 3]!.appendEvent(
            index % 2 === 0 ? key : other,
            event(`e${String(index).padStart(3, '0')}`, at + index, { [`user:k${index}`]: index, s: index }),
          ),
        ),
      );
      const loaded = await services[1]!.get(key);
      expect(Object.keys(loaded?.state ?? {})).toHaveLength(61);
      expect(loaded?.state.s).toBe(58);
      expect(loaded?.events).toHaveLength(30);
      await Promise.all(pools.slice(1).map((each) => each.end()));
    });

    it('keeps sessions with different table prefixes apart, and owns a pool it created', async () => {
      const first = new PostgresSessionService({ pool, schema, tablePrefix: 'one_' });
      const second = new PostgresSessionService({ connectionString, schema, tablePrefix: 'two_' });
      await Promise.all([first.setup(), second.setup()]);
      await first.create({ ...key, state: { 'app:x': 1 } });
      expect(await second.get(key)).toBeUndefined();
      await second.create(key);
      expect((await second.get(key))?.state).toEqual({});
      await second.close();
      await expect(second.get(key)).rejects.toThrow();
      await first.close();
      expect((await first.get(key))?.state).toEqual({ 'app:x': 1 });
    });
  });
});
