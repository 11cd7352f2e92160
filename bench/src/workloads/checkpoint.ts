// Durability cost: the loop with a checkpoint after every step (memory, SQLite, PostgreSQL when
// WEFT_PG_URL is set), each against its floor (the floor engine storing each step's writes in memory, or
// the same bytes inserted with bare better-sqlite3 / pg), and the bytes a store holds after 1000 steps
// that each append a 1 KB message.
import { MemorySaver } from '@langchain/langgraph';
import {
  floorPostgresCheckpoint,
  floorSqliteCheckpoint,
  floorSqliteSameRows,
  type StoreProbe,
  weftMemoryStore,
  weftPostgresStore,
  weftSqliteStore,
} from '../checkpointers.ts';
import { floorLoop } from '../graphs/floor.ts';
import { type FloorCheckpoint, floorMemoryCheckpointer } from '../graphs/floor-engine.ts';
import { langGraphConfig, langGraphLoop, langGraphMessages } from '../graphs/langgraph-graphs.ts';
import { type Counter, weftLoop, weftMessages } from '../graphs/weft-graphs.ts';
import { type Engine, expectEqual } from '../harness.ts';
import { type Cell, formatBytes, type Row } from '../table.ts';
import { type BenchContext, compareRow, measures, pick, type Workload } from '../workload.ts';

let threadCounter = 0;
const nextThread = () => `bench-${process.pid}-${++threadCounter}`;

interface CheckpointedRun extends Counter {
  /** Whether the store holds at least one checkpoint of the run's thread. */
  readonly stored: boolean;
}

/** Floor: the floor engine's loop, each step's writes stored by `checkpoint` (per thread). */
function floorCheckpointedLoop(
  iterations: number,
  checkpoint: (threadId: string) => FloorCheckpoint,
): () => Promise<CheckpointedRun> {
  let stored = 0;
  const counting = (threadId: string): FloorCheckpoint => {
    const inner = checkpoint(threadId);
    return (step, writes) => {
      stored++;
      return inner(step, writes);
    };
  };
  const loop = floorLoop(iterations, () => counting(nextThread()));
  return async () => {
    stored = 0;
    const state = await loop({ n: 0 });
    return { ...state, stored: stored > 0 };
  };
}

function weftRun(probe: StoreProbe, iterations: number): (() => Promise<CheckpointedRun>) | undefined {
  if (!('store' in probe)) return undefined;
  const { checkpointer } = probe.store;
  const app = weftLoop(iterations, { checkpointer });
  return async () => {
    const threadId = nextThread();
    const state = await app.invoke({ n: 0 }, { threadId });
    const stored = (await checkpointer.list(threadId, { limit: 1 })).length > 0;
    return { ...state, stored };
  };
}

/** Steps per invoke of the loop: `a` and `b` once per iteration. */
const stepsOf = (iterations: number) => 2 * iterations;

async function checkpointRows(context: BenchContext): Promise<Row[]> {
  const iterations = pick(context, 200, 50);
  const steps = stepsOf(iterations);
  const check = (run: CheckpointedRun) => {
    expectEqual('loop n', run.n, iterations);
    expectEqual('checkpoint stored', run.stored, true);
  };
  const perStep = { unit: 'µs/step', scale: (ms: number) => (ms * 1000) / steps };
  const memory = await weftMemoryStore();
  const saver = new MemorySaver();
  const langGraph = langGraphLoop(iterations, { checkpointer: saver });
  const threads = new Map<string, string[]>();
  const weftMemory = weftRun(memory, iterations);
  const memoryRow = await compareRow<CheckpointedRun>(context, {
    workload: `checkpoint: loop × ${iterations}, memory (floor: writes as JSON in a Map)`,
    ...perStep,
    runs: {
      ...(weftMemory ? { weft: weftMemory } : {}),
      langgraph: async () => {
        const threadId = nextThread();
        const state = await langGraph.invoke({ n: 0 }, langGraphConfig(threadId));
        return { ...state, stored: saver.storage[threadId] !== undefined };
      },
      floor: floorCheckpointedLoop(iterations, (threadId) => floorMemoryCheckpointer(threads, threadId)),
    },
    check,
    ...('pending' in memory ? { fixed: { weft: 'pending' }, notes: [memory.pending] } : {}),
  });
  if ('store' in memory) await memory.store.close();
  return [memoryRow, ...(await storeRows(context, iterations, check))];
}

/** SQLite, and PostgreSQL when WEFT_PG_URL is set: Weft's checkpointer against a bare insert per step. */
async function storeRows(
  context: BenchContext,
  iterations: number,
  check: (run: CheckpointedRun) => void,
): Promise<Row[]> {
  const steps = stepsOf(iterations);
  const rows: Row[] = [];
  const url = process.env.WEFT_PG_URL;
  const backends = [
    {
      label: 'SQLite',
      floor: 'better-sqlite3 insert, WAL',
      weft: weftSqliteStore,
      bare: floorSqliteCheckpoint,
    },
    ...(url
      ? [
          {
            label: 'PostgreSQL',
            floor: 'pg insert',
            weft: () => weftPostgresStore(url),
            bare: () => floorPostgresCheckpoint(url),
          },
        ]
      : []),
  ];
  if (!url) context.log('  checkpoint: WEFT_PG_URL is not set; PostgreSQL row skipped');
  for (const backend of backends) {
    const store = measures(context, 'weft') ? await backend.weft() : undefined;
    const bare = measures(context, 'floor') ? await backend.bare() : undefined;
    const weft = store ? weftRun(store, iterations) : undefined;
    rows.push(
      await compareRow<CheckpointedRun>(context, {
        workload: `checkpoint: loop × ${iterations}, ${backend.label} (floor: ${backend.floor})`,
        unit: 'µs/step',
        scale: (ms) => (ms * 1000) / steps,
        runs: {
          ...(weft ? { weft } : {}),
          ...(bare ? { floor: floorCheckpointedLoop(iterations, bare.checkpoint) } : {}),
        },
        check,
        ...(store && 'pending' in store ? { fixed: { weft: 'pending' }, notes: [store.pending] } : {}),
      }),
    );
    const sameRows = weft && bare && store && 'store' in store ? store.store.path : undefined;
    if (sameRows !== undefined)
      rows.push(await sameRowsRow(context, iterations, check, weft as Run, sameRows));
    if (store && 'store' in store) await store.store.close();
    await bare?.close();
  }
  return rows;
}

type Run = () => Promise<CheckpointedRun>;

/** What the writes-only floor stores per step of the loop: `{ step, writes }` of node `a` as JSON. */
const writesOnlyBytes = JSON.stringify({ step: 100, writes: [['a', { n: 100 }]] }).length;

/**
 * Weft's SQLite step again, against a bare insert of the very rows it wrote (same bytes, same table and
 * indexes; `floorSqliteSameRows`): what the engine adds on top of storing what it stores.
 */
async function sameRowsRow(
  context: BenchContext,
  iterations: number,
  check: (run: CheckpointedRun) => void,
  weft: Run,
  path: string,
): Promise<Row> {
  const steps = stepsOf(iterations);
  const bare = floorSqliteSameRows(path);
  try {
    const row = await compareRow<CheckpointedRun>(context, {
      workload: `checkpoint: loop × ${iterations}, SQLite (floor: Weft's own rows, bare insert)`,
      unit: 'µs/step',
      scale: (ms) => (ms * 1000) / steps,
      runs: { weft, floor: floorCheckpointedLoop(iterations, bare.checkpoint) },
      check,
    });
    const note = `checkpoint: Weft's SQLite rows average ${Math.round(bare.rowBytes)} bytes of column data (the writes-only floor's body: ${writesOnlyBytes} bytes)`;
    return { ...row, notes: [...(row.notes ?? []), note] };
  } finally {
    await bare.close();
  }
}

export const checkpointWorkload: Workload = { name: 'checkpoint', run: checkpointRows };

/** A 1 KB message that differs per step (so no store can deduplicate it). */
function message(i: number): string {
  const head = `message ${i}: `;
  return head + 'x'.repeat(1024 - head.length);
}

/** Bytes MemorySaver holds for a thread: serialized checkpoints and metadata plus its pending writes. */
export function memorySaverBytes(saver: MemorySaver, threadId: string): number {
  let total = 0;
  for (const checkpoints of Object.values(saver.storage[threadId] ?? {})) {
    for (const [checkpoint, metadata] of Object.values(checkpoints)) {
      total += checkpoint.byteLength + metadata.byteLength;
    }
  }
  for (const [key, writes] of Object.entries(saver.writes)) {
    if ((JSON.parse(key) as unknown[])[0] !== threadId) continue;
    for (const [, , value] of Object.values(writes)) total += value.byteLength;
  }
  return total;
}

async function weftStoredBytes(steps: number): Promise<{ cell: Cell; notes: string[] }> {
  const memory = await weftMemoryStore();
  if (!('store' in memory)) return { cell: 'pending', notes: [memory.pending] };
  const { checkpointer } = memory.store;
  if (typeof checkpointer.storedBytes !== 'function') {
    return { cell: 'pending', notes: ['(pending: MemoryCheckpointer.storedBytes is missing)'] };
  }
  const threadId = nextThread();
  const state = await weftMessages(steps, message, { checkpointer }).invoke({ i: 0 }, { threadId });
  expectEqual('weft message count', state.messages.length, steps);
  return { cell: checkpointer.storedBytes(threadId) / 1024, notes: [] };
}

async function storageRows(context: BenchContext): Promise<Row[]> {
  const steps = pick(context, 1000, 200);
  context.log(`  storage: ${steps} steps × 1 KB`);
  const failures: string[] = [];
  const notes: string[] = [];
  const cells: Record<Engine, Cell> = { weft: null, langgraph: null, floor: null };
  const heap: string[] = [];
  if (measures(context, 'weft')) {
    try {
      const weft = await weftStoredBytes(steps);
      cells.weft = weft.cell;
      notes.push(...weft.notes);
    } catch (error) {
      cells.weft = 'FAIL';
      failures.push(`storage [weft]: ${error instanceof Error ? error.message : error}`);
    }
  }
  if (measures(context, 'langgraph')) {
    const saver = new MemorySaver();
    const threadId = nextThread();
    const started = performance.now();
    const state = await langGraphMessages(steps, message, { checkpointer: saver }).invoke(
      { i: 0 },
      langGraphConfig(threadId),
    );
    heap.push(`LG run ${((performance.now() - started) / 1000).toFixed(1)} s`);
    if (state.messages.length !== steps)
      failures.push(`storage [langgraph]: ${state.messages.length} messages`);
    cells.langgraph = memorySaverBytes(saver, threadId) / 1024;
  }
  if (measures(context, 'floor')) {
    const payload = Buffer.byteLength(JSON.stringify(Array.from({ length: steps }, (_, i) => message(i))));
    cells.floor = payload / 1024;
    heap.push(`floor = the messages once (${formatBytes(payload)})`);
  }
  return [
    {
      workload: `storage: ${steps} steps × 1 KB message`,
      unit: 'KB',
      ...cells,
      heap: heap.join('; '),
      failures,
      notes,
    },
  ];
}

export const storageWorkload: Workload = { name: 'storage', run: storageRows };
