// Durability cost: the loop with a checkpoint after every step (memory and SQLite), and the bytes a
// store holds after 1000 steps that each append a 1 KB message.
import { MemorySaver } from '@langchain/langgraph';
import { type StoreProbe, weftMemoryStore, weftSqliteStore } from '../checkpointers.ts';
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

/** Floor: the plain loop, storing a JSON snapshot of the state after every step. */
async function floorCheckpointedLoop(iterations: number, snapshots: Map<string, string[]>) {
  const thread: string[] = [];
  snapshots.set(nextThread(), thread);
  let state: Counter = { n: 0 };
  do {
    state = { ...state, ...(await (async () => ({ n: state.n + 1 }))()) };
    thread.push(JSON.stringify(state));
    state = { ...state, ...(await (async () => ({}))()) };
    thread.push(JSON.stringify(state));
  } while (state.n < iterations);
  return { ...state, stored: thread.length > 0 };
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

async function checkpointRows(context: BenchContext): Promise<Row[]> {
  const iterations = pick(context, 200, 50);
  const check = (run: CheckpointedRun) => {
    expectEqual('loop n', run.n, iterations);
    expectEqual('checkpoint stored', run.stored, true);
  };
  const memory = await weftMemoryStore();
  const saver = new MemorySaver();
  const langGraph = langGraphLoop(iterations, { checkpointer: saver });
  const snapshots = new Map<string, string[]>();
  const weftMemory = weftRun(memory, iterations);
  const memoryRow = await compareRow<CheckpointedRun>(context, {
    workload: `checkpoint: loop × ${iterations}, memory`,
    unit: 'ms/invoke',
    runs: {
      ...(weftMemory ? { weft: weftMemory } : {}),
      langgraph: async () => {
        const threadId = nextThread();
        const state = await langGraph.invoke({ n: 0 }, langGraphConfig(threadId));
        return { ...state, stored: saver.storage[threadId] !== undefined };
      },
      floor: () => floorCheckpointedLoop(iterations, snapshots),
    },
    check,
    ...('pending' in memory ? { fixed: { weft: 'pending' }, notes: [memory.pending] } : {}),
  });
  if ('store' in memory) await memory.store.close();

  const sqlite = await weftSqliteStore();
  const weftSqlite = weftRun(sqlite, iterations);
  const sqliteRow = await compareRow<CheckpointedRun>(context, {
    workload: `checkpoint: loop × ${iterations}, SQLite`,
    unit: 'ms/invoke',
    runs: {
      ...(weftSqlite ? { weft: weftSqlite } : {}),
    },
    check,
    ...('pending' in sqlite ? { fixed: { weft: 'pending' }, notes: [sqlite.pending] } : {}),
  });
  if ('store' in sqlite) await sqlite.store.close();
  return [memoryRow, sqliteRow];
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
