import { type ChildProcess, spawn } from 'node:child_process';
import { CheckpointConflictError } from '@weft/compose';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PostgresCheckpointer } from './postgres-checkpointer.js';
import { POSTGRES_SCHEMA_VERSION } from './postgres-schema.js';

const url = process.env.WEFT_PG_URL ?? '';
if (url === '') console.warn('WEFT_PG_URL is not set: skipping the PostgreSQL migration and claim tests');
const runId = `${process.pid.toString(36)}_${Date.now().toString(36)}`;
let schemaCount = 0;

describe.skipIf(url === '')('PostgresCheckpointer schema 3 and claims', () => {
  let pool: pg.Pool;
  let schema: string;
  const children: ChildProcess[] = [];

  beforeEach(() => {
    pool = new pg.Pool({ connectionString: url, max: 4 });
    schema = `weft_migrate_${runId}_${++schemaCount}`;
  });

  afterEach(async () => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  });

  it('gives the checkpoints of existing tables their positions in the old id order', async () => {
    // The checkpoint tables and the sessions table as schema version 2 left them.
    await pool.query(`
      CREATE SCHEMA "${schema}";
      CREATE TABLE "${schema}".weft_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now());
      INSERT INTO "${schema}".weft_migrations (version) VALUES (1), (2);
      CREATE TABLE "${schema}".weft_checkpoints (
        thread_id text NOT NULL, ns text NOT NULL, id text COLLATE "C" NOT NULL, parent_id text COLLATE "C",
        base_id text COLLATE "C" NOT NULL, step integer NOT NULL, source text NOT NULL, created_at text NOT NULL,
        metadata jsonb NOT NULL, payload text NOT NULL, PRIMARY KEY (thread_id, ns, id)
      );
      CREATE TABLE "${schema}".weft_checkpoint_writes (
        seq bigint GENERATED ALWAYS AS IDENTITY, thread_id text NOT NULL, ns text NOT NULL,
        checkpoint_id text COLLATE "C" NOT NULL, task_id text NOT NULL, payload text NOT NULL,
        PRIMARY KEY (thread_id, ns, checkpoint_id, task_id)
      );
      CREATE TABLE "${schema}".weft_sessions (
        app_name text NOT NULL, user_id text NOT NULL, session_id text COLLATE "C" NOT NULL,
        created_at double precision NOT NULL, last_update_time double precision NOT NULL,
        PRIMARY KEY (app_name, user_id, session_id)
      );
      INSERT INTO "${schema}".weft_sessions VALUES ('app', 'u1', 's1', 1000, 2000);
      INSERT INTO "${schema}".weft_checkpoints VALUES
        ('t1', '', 'c', 'b', 'c', 0, 'loop', '', '{}', '{}'),
        ('t1', '', 'a', NULL, 'a', 0, 'loop', '', '{}', '{}'),
        ('t1', '', 'b', 'a', 'b', 0, 'loop', '', '{}', '{}'),
        ('t1', 'outer:1', 'x', NULL, 'x', 0, 'loop', '', '{}', '{}');
    `);
    const store = new PostgresCheckpointer({ pool, schema });
    await store.setup();
    expect((await store.list('t1')).map((record) => [record.id, record.seq])).toEqual([
      ['c', 3],
      ['b', 2],
      ['a', 1],
    ]);
    expect((await store.get('t1', { ns: 'outer:1' }))?.checkpoint.seq).toBe(1);
    const head = (await store.get('t1'))!.checkpoint;
    // Rows written before checksums have none (the engine loads them unchecked).
    expect(head).not.toHaveProperty('checksum');
    await store.put({ ...head, id: 'd', parentId: 'c', seq: 4 });
    await expect(store.put({ ...head, id: 'e', parentId: 'c', seq: 4 })).rejects.toSatisfy(
      CheckpointConflictError.isInstance,
    );
    const { rows } = await pool.query(`SELECT max(version) AS version FROM "${schema}".weft_migrations`);
    expect(rows[0].version).toBe(POSTGRES_SCHEMA_VERSION);
    // Schema 6: an existing session is idle since its last update, with no turns counted.
    const sessions = await pool.query(`SELECT status, status_time, turns FROM "${schema}".weft_sessions`);
    expect(sessions.rows).toEqual([{ status: 'idle', status_time: 2000, turns: 0 }]);
  });

  it('drops the base and parent indexes of schema 6 tables, and still lists the deltas of a snapshot', async () => {
    const store = new PostgresCheckpointer({ pool, schema });
    await store.setup();
    const bases = { a: 'a', b: 'a', c: 'a', d: 'd', e: 'd', f: 'a' };
    let seq = 0;
    for (const [id, baseId] of Object.entries(bases)) {
      seq++;
      await store.put({
        ...{ threadId: 't1', ns: '', id, seq, parentId: null, baseId, step: seq, source: 'loop' },
        ...{ createdAt: '2024-01-01T00:00:00.000Z', metadata: {}, payload: '{}' },
      });
    }
    // Back to what schema 6 left: both indexes present, version 7 not applied.
    await pool.query(`
      CREATE INDEX weft_checkpoints_base_idx ON "${schema}".weft_checkpoints (thread_id, ns, base_id, id);
      CREATE INDEX weft_checkpoints_parent_idx ON "${schema}".weft_checkpoints (thread_id, ns, parent_id);
      DROP TABLE "${schema}".weft_thread_claims;
      DELETE FROM "${schema}".weft_migrations WHERE version > 6;
    `);
    await store.setup();
    const ids = async (baseId: string) => (await store.list('t1', { baseId })).map((record) => record.id);
    expect(await ids('a')).toEqual(['f', 'c', 'b', 'a']);
    expect(await ids('d')).toEqual(['e', 'd']);
    expect(await ids('missing')).toEqual([]);
    const indexes = await pool.query('SELECT indexname FROM pg_indexes WHERE schemaname = $1', [schema]);
    const names = indexes.rows.map((row: { indexname: string }) => row.indexname);
    expect(names).toContain('weft_checkpoints_seq_idx');
    expect(names).not.toContain('weft_checkpoints_base_idx');
    expect(names).not.toContain('weft_checkpoints_parent_idx');
    const { rows } = await pool.query(`SELECT max(version) AS version FROM "${schema}".weft_migrations`);
    expect(rows[0].version).toBe(POSTGRES_SCHEMA_VERSION);
    await store.close();
  });

  it('a claim held by a live process refuses others; killing the process frees the thread', async () => {
    const store = new PostgresCheckpointer({ pool, schema });
    await store.setup();
    const script = `
      const { PostgresCheckpointer } = await import(${JSON.stringify(new URL('./postgres-checkpointer.ts', import.meta.url).href)});
      const store = new PostgresCheckpointer({ connectionString: ${JSON.stringify(url)}, schema: ${JSON.stringify(schema)} });
      await store.claimThread('t1');
      console.log('claimed');
      setInterval(() => {}, 1000);
    `;
    const child = spawn(
      'node',
      ['--conditions=@weft/source', '--import', 'tsx', '--input-type=module', '-e', script],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    children.push(child);
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('claimed')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`the claiming child exited early (${code})`)));
    });
    await expect(store.claimThread('t1')).rejects.toSatisfy(CheckpointConflictError.isInstance);
    const other = await store.claimThread('t2');
    await other.release();
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    // The server drops the killed process's session (and its lock) once it sees the socket close.
    let claim: Awaited<ReturnType<typeof store.claimThread>> | undefined;
    for (let attempt = 0; attempt < 800 && claim === undefined; attempt++) {
      claim = await store.claimThread('t1').catch(async () => {
        await new Promise((resolve) => setTimeout(resolve, 25));
        return undefined;
      });
    }
    expect(claim).toBeDefined();
    await claim?.release();
    await store.close();
  }, 300_000);
});
