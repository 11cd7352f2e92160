// Finds Weft's checkpointers at run time, so the checkpoint workloads report "pending" instead of failing
// while the memory and SQLite stores are still being written (or while compile() ignores them).
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Checkpointer } from '@weft/compose';
import * as compose from '@weft/compose';
import { PostgresCheckpointer } from '@weft/store-postgres';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { FloorCheckpoint } from './graphs/floor-engine.ts';
import { weftLoop } from './graphs/weft-graphs.ts';

export const PENDING_CHECKPOINTER = '(pending: checkpointer not available)';

/** A Weft checkpointer that stores checkpoints when a graph is compiled with it. */
export interface WeftStore {
  readonly checkpointer: Checkpointer & { storedBytes?(threadId?: string): number };
  close(): Promise<void>;
  /** The database file, for a store that keeps one (SQLite). */
  readonly path?: string;
}

/** A store, or why none is usable (printed in the notes). */
export type StoreProbe = { readonly store: WeftStore } | { readonly pending: string };

type CheckpointerClass = new (...args: unknown[]) => WeftStore['checkpointer'];

/** Runs a 3-iteration loop on the store and checks that a checkpoint was written for its thread. */
async function probe(checkpointer: WeftStore['checkpointer']): Promise<string | undefined> {
  try {
    const threadId = `probe-${Date.now()}`;
    const result = await weftLoop(3, { checkpointer }).invoke({ n: 0 }, { threadId });
    if (result.n !== 3) return `the probe run ended with n=${result.n}, expected 3`;
    const saved = await checkpointer.list(threadId, { limit: 1 });
    if (saved.length === 0) return 'compile({ checkpointer }) accepted it but no checkpoint was stored';
    await checkpointer.deleteThread(threadId);
    return undefined;
  } catch (error) {
    return `compile/invoke with it failed: ${error instanceof Error ? error.message : String(error)}`;
  }
}

async function accept(checkpointer: WeftStore['checkpointer']): Promise<StoreProbe> {
  const problem = await probe(checkpointer);
  const close = async () => checkpointer.close?.();
  if (problem === undefined) return { store: { checkpointer, close } };
  await close();
  return { pending: `${PENDING_CHECKPOINTER} ${problem}` };
}

/** `MemoryCheckpointer` from `@weft/compose`, once it is exported and the engine writes to it. */
export async function weftMemoryStore(): Promise<StoreProbe> {
  // Read by name: the export may not exist yet, and a static import would not compile then.
  const exports = compose as unknown as Record<string, unknown>;
  const MemoryCheckpointer = exports.MemoryCheckpointer as CheckpointerClass | undefined;
  if (typeof MemoryCheckpointer !== 'function') {
    return { pending: `${PENDING_CHECKPOINTER} @weft/compose does not export MemoryCheckpointer yet` };
  }
  return accept(new MemoryCheckpointer());
}

function removingFile(store: WeftStore, path: string): WeftStore {
  return {
    path,
    checkpointer: store.checkpointer,
    close: async () => {
      await store.close();
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
    },
  };
}

/**
 * The SQLite checkpointer of `@weft/store-sqlite` on a temporary file, once the package exists and is a
 * dependency of the bench. Tries `new X({ filename })`, then `new X(filename)`.
 */
export async function weftSqliteStore(): Promise<StoreProbe> {
  const specifier = '@weft/store-sqlite';
  let exports: Record<string, unknown>;
  try {
    exports = (await import(specifier)) as Record<string, unknown>;
  } catch {
    return {
      pending: `${PENDING_CHECKPOINTER} ${specifier} cannot be imported (not written or not a dependency)`,
    };
  }
  const name = Object.keys(exports).find((key) => /sqlite.*checkpointer/i.test(key));
  const Sqlite = name === undefined ? undefined : (exports[name] as CheckpointerClass);
  if (typeof Sqlite !== 'function') {
    return { pending: `${PENDING_CHECKPOINTER} ${specifier} exports no *SqliteCheckpointer class` };
  }
  const path = join(tmpdir(), `weft-bench-${process.pid}-${Date.now()}.sqlite`);
  let lastProblem = '';
  for (const make of [() => new Sqlite({ filename: path }), () => new Sqlite(path)]) {
    try {
      const result = await accept(make());
      if ('store' in result) return { store: removingFile(result.store, path) };
      lastProblem = result.pending;
    } catch (error) {
      lastProblem = `${PENDING_CHECKPOINTER} new ${name}(…) failed: ${error instanceof Error ? error.message : error}`;
    }
  }
  return { pending: lastProblem };
}

/** `PostgresCheckpointer` of `@weft/store-postgres` in a throwaway schema (dropped on close). */
export async function weftPostgresStore(url: string): Promise<StoreProbe> {
  const schema = `weft_bench_cp_${process.pid}_${Date.now().toString(36)}`;
  const checkpointer = new PostgresCheckpointer({ connectionString: url, schema });
  await checkpointer.setup();
  const result = await accept(checkpointer);
  if (!('store' in result)) {
    await dropSchema(url, schema);
    return result;
  }
  return {
    store: {
      checkpointer,
      close: async () => {
        await result.store.close();
        await dropSchema(url, schema);
      },
    },
  };
}

async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
}

/** A floor store: a checkpoint function per thread (each step's writes as JSON, one insert) and a close. */
export interface FloorStore {
  readonly checkpoint: (threadId: string) => FloorCheckpoint;
  close(): Promise<void>;
}

/**
 * The SQLite floor: bare better-sqlite3 on a temporary file with the store's settings (WAL journal,
 * `synchronous = NORMAL`), one prepared insert of the step's writes as JSON per step.
 */
export async function floorSqliteCheckpoint(): Promise<FloorStore> {
  const path = join(tmpdir(), `weft-bench-floor-${process.pid}-${Date.now()}.sqlite`);
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(
    'CREATE TABLE writes (thread TEXT NOT NULL, step INTEGER NOT NULL, body TEXT NOT NULL, PRIMARY KEY (thread, step))',
  );
  const insert = db.prepare('INSERT INTO writes (thread, step, body) VALUES (?, ?, ?)');
  return {
    checkpoint: (threadId) => (step, writes) => {
      insert.run(threadId, step, JSON.stringify({ step, writes }));
    },
    close: async () => {
      db.close();
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
    },
  };
}

/**
 * The PostgreSQL floor: one bare `pg` client, one autocommitted insert of the step's writes as JSON per
 * step (so one commit, and one WAL flush, per step like a durable run), in a throwaway schema.
 */
export async function floorPostgresCheckpoint(url: string): Promise<FloorStore> {
  const schema = `weft_bench_floor_${process.pid}_${Date.now().toString(36)}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`CREATE SCHEMA "${schema}"`);
  await client.query(
    `CREATE TABLE "${schema}".writes (thread TEXT NOT NULL, step INTEGER NOT NULL, body JSONB NOT NULL, PRIMARY KEY (thread, step))`,
  );
  const text = `INSERT INTO "${schema}".writes (thread, step, body) VALUES ($1, $2, $3)`;
  return {
    checkpoint: (threadId) => async (step, writes) => {
      await client.query({
        name: `floor-insert-${schema}`,
        text,
        values: [threadId, step, JSON.stringify({ step, writes })],
      });
    },
    close: async () => {
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    },
  };
}

/**
 * The SQLite floor of the same bytes (issue #28, goal 2: "a bare better-sqlite3 insert of the same bytes
 * in WAL mode"): the checkpoint rows Weft's SQLite store wrote for one of its threads at `source`, each
 * inserted again by one prepared bare `INSERT` into a fresh file with the store's own table and indexes
 * and settings (WAL, `synchronous = NORMAL`), under the floor's thread id. So the rows, their bytes and
 * the B-trees they go into are Weft's; what is left out is everything the engine does to make them.
 */
export function floorSqliteSameRows(source: string): FloorStore & { readonly rowBytes: number } {
  const from = new Database(source, { readonly: true });
  const table = 'weft_checkpoints';
  const schema = from
    .prepare("SELECT sql FROM sqlite_master WHERE tbl_name = ? AND sql IS NOT NULL ORDER BY type = 'index'")
    .pluck()
    .all(table) as string[];
  const columns = (from.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map(
    (c) => c.name,
  );
  const thread = from
    .prepare(`SELECT thread_id FROM ${table} GROUP BY thread_id ORDER BY count(*) DESC LIMIT 1`)
    .pluck()
    .get();
  const rows = from
    .prepare(`SELECT ${columns.join(', ')} FROM ${table} WHERE thread_id = ? ORDER BY seq`)
    .raw()
    .all(thread) as unknown[][];
  from.close();
  if (rows.length === 0) throw new Error(`floorSqliteSameRows: no checkpoint rows in ${source}`);
  const path = join(tmpdir(), `weft-bench-same-rows-${process.pid}-${Date.now()}.sqlite`);
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  for (const sql of schema) db.exec(sql);
  const insert = db.prepare(
    `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
  );
  const threadAt = columns.indexOf('thread_id');
  let bytes = 0;
  for (const row of rows)
    for (const cell of row) bytes += typeof cell === 'string' ? Buffer.byteLength(cell) : 8;
  return {
    rowBytes: bytes / rows.length,
    checkpoint: (threadId) => (step) => {
      const row = [...(rows[step % rows.length] as unknown[])];
      row[threadAt] = threadId;
      insert.run(row);
    },
    close: async () => {
      db.close();
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
    },
  };
}
