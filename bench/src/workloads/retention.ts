// Issue #48, data that lives for years (Weft only; the floor column is the comparison named in each row):
// - compaction: bytes a 10,000-step thread holds compacted (`compactThread`) to a snapshot plus its newest 100 checkpoints,
//   against the same thread uncompacted (floor column);
// - prune: `pruneCheckpoints({ keepLast: 10 })` over 1,000,000 checkpoints (1,000 threads × 1,000) on
//   SQLite and on PostgreSQL (with WEFT_PG_URL), against one bare DELETE of the same rows on the same data
//   (floor column); the heap column names the longest single transaction the prune held (what a run on
//   the same thread waits for at most).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  appendReducer,
  END,
  type MaintainableCheckpointer,
  MemoryCheckpointer,
  START,
  StateGraph,
} from '@weft/compose';
import { compactThread, pruneCheckpoints } from '@weft/compose/maintenance';
import { PostgresCheckpointer } from '@weft/store-postgres';
import { SqliteCheckpointer } from '@weft/store-sqlite';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { z } from 'zod';
import { expectEqual } from '../harness.ts';
import type { Row } from '../table.ts';
import { type BenchContext, measures, pick, type Workload } from '../workload.ts';

/** A chat-like loop: each step appends a 100-byte message. */
function chatLoop(checkpointer: MaintainableCheckpointer, steps: number) {
  return new StateGraph(z.object({ messages: z.array(z.string()), n: z.number() }), {
    reducers: { messages: appendReducer },
  })
    .addNode('turn', (state) => ({ messages: [`${state.n}:${'m'.repeat(96)}`], n: state.n + 1 }))
    .addEdge(START, 'turn')
    .addConditionalEdges('turn', (state) => (state.n < steps ? 'turn' : END))
    .compile({ checkpointer, name: 'chat', maxSteps: steps + 1 });
}

async function threadBytes(checkpointer: MaintainableCheckpointer, threadId: string): Promise<number> {
  const [thread] = await checkpointer.listThreads({ threadId });
  return thread?.bytes ?? 0;
}

async function compactionRows(context: BenchContext): Promise<Row[]> {
  const steps = pick(context, 10_000, 1_000);
  const rows: Row[] = [];
  const directory = mkdtempSync(join(tmpdir(), 'weft-bench-retention-'));
  try {
    for (const [name, open] of [
      ['memory', () => new MemoryCheckpointer()],
      ['SQLite', () => new SqliteCheckpointer({ filename: join(directory, 'compact.db') })],
    ] as const) {
      context.log(`  compaction (${name}): ${steps} steps`);
      const checkpointer: MaintainableCheckpointer = open();
      const app = chatLoop(checkpointer, steps);
      await app.invoke({ messages: [], n: 0 }, { threadId: 'long' });
      const before = await threadBytes(checkpointer, 'long');
      const rowsBefore = (await checkpointer.list('long')).length;
      const started = performance.now();
      const report = await compactThread(app, 'long', { keepLast: 100 });
      const ms = performance.now() - started;
      const after = await threadBytes(checkpointer, 'long');
      const state = await app.getState('long');
      expectEqual(
        'compacted thread messages',
        (state?.values as { messages: string[] } | undefined)?.messages.length,
        steps,
      );
      rows.push({
        workload: `compaction (${name}): ${steps}-step thread → snapshot + 100`,
        unit: 'KB',
        weft: after / 1024,
        langgraph: null,
        floor: before / 1024,
        heap: `${rowsBefore} → ${rowsBefore - report.deleted} rows in ${ms.toFixed(0)} ms; floor = the same thread uncompacted`,
        failures: [],
        notes: [],
      });
      await checkpointer.close?.();
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
  return rows;
}

/** Wraps a store so the longest guarded delete (one transaction each) is recorded. */
function timedDeletes(checkpointer: MaintainableCheckpointer): {
  store: MaintainableCheckpointer;
  longest: () => number;
} {
  let longest = 0;
  // Every method bound to the store (its private fields need `this` to be the store itself).
  const store = new Proxy(checkpointer, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      if (typeof value !== 'function') return value;
      if (property !== 'deleteCheckpoints') return (value as (...args: unknown[]) => unknown).bind(target);
      return async (...args: Parameters<MaintainableCheckpointer['deleteCheckpoints']>) => {
        const started = performance.now();
        try {
          return await target.deleteCheckpoints(...args);
        } finally {
          longest = Math.max(longest, performance.now() - started);
        }
      };
    },
  });
  return { store, longest: () => longest };
}

const PAYLOAD =
  '{"v":1,"values":{"n":1},"writes":[],"next":[],"routing":{"barriers":[],"inbox":[],"deferred":[]},"sinceBase":{"bytes":0,"count":0}}';

async function sqlitePruneRow(context: BenchContext, threads: number, per: number): Promise<Row> {
  const directory = mkdtempSync(join(tmpdir(), 'weft-bench-prune-'));
  try {
    const fill = (file: string): void => {
      void new SqliteCheckpointer({ filename: file }).close();
      const db = new BetterSqlite3(file);
      db.pragma('journal_mode = WAL');
      db.exec(`WITH RECURSIVE t(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM t WHERE i < ${threads}),
                              c(j) AS (SELECT 1 UNION ALL SELECT j + 1 FROM c WHERE j < ${per})
               INSERT INTO weft_checkpoints (thread_id, ns, id, seq, parent_id, base_id, step, source, created_at, metadata, payload)
               SELECT 't' || i, '', printf('%08d', j), j, CASE WHEN j = 1 THEN NULL ELSE printf('%08d', j - 1) END,
                      printf('%08d', j), j, 'loop', '2026-01-01T00:00:00.000Z', '{"graph":"bench"}', '${PAYLOAD}'
               FROM t, c`);
      db.close();
    };
    const total = threads * per;
    context.log(`  prune (SQLite): ${total} checkpoints`);
    const pruneFile = join(directory, 'prune.db');
    fill(pruneFile);
    const checkpointer = new SqliteCheckpointer({ filename: pruneFile });
    const timed = timedDeletes(checkpointer);
    let started = performance.now();
    const report = await pruneCheckpoints(timed.store, { policy: { keepLast: 10 } });
    const pruneMs = performance.now() - started;
    expectEqual('pruned checkpoints', report.deletedCheckpoints, threads * (per - 10));
    await checkpointer.close();
    const bareFile = join(directory, 'bare.db');
    fill(bareFile);
    const db = new BetterSqlite3(bareFile);
    started = performance.now();
    const deleted = db.prepare(`DELETE FROM weft_checkpoints WHERE seq <= ${per - 10}`).run().changes;
    const bareMs = performance.now() - started;
    db.close();
    expectEqual('bare delete', deleted, threads * (per - 10));
    return pruneRow('SQLite', total, pruneMs, bareMs, timed.longest());
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

async function postgresPruneRow(
  context: BenchContext,
  url: string,
  threads: number,
  per: number,
): Promise<Row> {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  const schema = `weft_bench_prune_${process.pid.toString(36)}`;
  const total = threads * per;
  const fill = async (): Promise<void> => {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    const setup = new PostgresCheckpointer({ pool, schema });
    await setup.setup();
    await pool.query(
      `INSERT INTO "${schema}".weft_checkpoints (thread_id, ns, id, seq, parent_id, base_id, step, source, created_at, metadata, payload)
      SELECT 't' || i, '', lpad(j::text, 8, '0'), j, CASE WHEN j = 1 THEN NULL ELSE lpad((j - 1)::text, 8, '0') END,
             lpad(j::text, 8, '0'), j, 'loop', '2026-01-01T00:00:00.000Z', '{"graph":"bench"}', $1
      FROM generate_series(1, ${threads}) i, generate_series(1, ${per}) j`,
      [PAYLOAD],
    );
    await pool.query(`VACUUM ANALYZE "${schema}".weft_checkpoints`);
  };
  try {
    context.log(`  prune (PostgreSQL): ${total} checkpoints`);
    await fill();
    const checkpointer = new PostgresCheckpointer({ pool, schema });
    const timed = timedDeletes(checkpointer);
    let started = performance.now();
    const report = await pruneCheckpoints(timed.store, { policy: { keepLast: 10 } });
    const pruneMs = performance.now() - started;
    expectEqual('pruned checkpoints', report.deletedCheckpoints, threads * (per - 10));
    await fill();
    started = performance.now();
    const bare = await pool.query(`DELETE FROM "${schema}".weft_checkpoints WHERE seq <= ${per - 10}`);
    const bareMs = performance.now() - started;
    expectEqual('bare delete', bare.rowCount, threads * (per - 10));
    await checkpointer.close();
    return pruneRow('PostgreSQL', total, pruneMs, bareMs, timed.longest());
  } finally {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  }
}

function pruneRow(store: string, total: number, pruneMs: number, bareMs: number, longestMs: number): Row {
  return {
    workload: `prune keepLast 10 (${store}): ${total.toLocaleString('en')} checkpoints`,
    unit: 's',
    weft: pruneMs / 1000,
    langgraph: null,
    floor: bareMs / 1000,
    heap: `longest transaction ${longestMs.toFixed(0)} ms; floor = one bare DELETE of the same rows`,
    failures: [],
    notes: [],
  };
}

async function retentionRows(context: BenchContext): Promise<Row[]> {
  if (!measures(context, 'weft')) return [];
  const rows = await compactionRows(context);
  const threads = pick(context, 1000, 100);
  const per = pick(context, 1000, 100);
  rows.push(await sqlitePruneRow(context, threads, per));
  const url = process.env.WEFT_PG_URL;
  if (url) rows.push(await postgresPruneRow(context, url, threads, per));
  return rows;
}

export const retentionWorkload: Workload = { name: 'retention', run: retentionRows };
