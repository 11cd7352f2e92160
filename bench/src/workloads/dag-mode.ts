// DAG mode's cost per node-step with and without a checkpointer (ADR 023: an input checkpoint, one task
// write per finished node, a checkpoint at the end), on the 100-node chain and on a 10 × 10 layered DAG
// whose nodes each join the whole layer before (with SQLite, a layer's writes are stored as one batch). Pregel mode without a checkpointer is the reference row.
// Weft only; the variants are timed interleaved so their ratios hold within one run.
import type { Checkpointer } from '@weft/compose';
import { weftMemoryStore, weftSqliteStore } from '../checkpointers.ts';
import { type Counter, weftChain, weftLayered } from '../graphs/weft-graphs.ts';
import { expectEqual } from '../harness.ts';
import { interleaved, ratio, type Variant } from '../interleaved.ts';
import type { Row } from '../table.ts';
import { type BenchContext, measures, pick, type Workload } from '../workload.ts';

const NODES = 100;
const LAYERS = 10;
const WIDTH = 10;

let thread = 0;

export const dagModeWorkload: Workload = {
  name: 'dag-mode',
  async run(context: BenchContext) {
    if (!measures(context, 'weft')) return [];
    const memory = await weftMemoryStore();
    const sqlite = await weftSqliteStore();
    if (!('store' in memory) || !('store' in sqlite)) {
      const why = 'pending' in memory ? memory.pending : 'pending' in sqlite ? sqlite.pending : '';
      const row: Row = {
        workload: 'dag mode',
        unit: 'µs/step',
        weft: 'pending',
        langgraph: null,
        floor: null,
        heap: '',
        failures: [],
        notes: [why],
      };
      return [row];
    }
    const invokes = pick(context, 40, 3);
    const chain = (label: string, options: { mode?: 'dag'; checkpointer?: Checkpointer }): Variant => {
      const app = weftChain(NODES, options);
      const threaded = options.checkpointer !== undefined;
      return {
        label,
        steps: NODES,
        once: () => app.invoke({ n: 0 }, threaded ? { threadId: `dag-bench-${++thread}` } : {}),
        check: (state) => expectEqual('final n', (state as Counter).n, NODES),
      };
    };
    const layered = (label: string, checkpointer?: Checkpointer): Variant => {
      const app = weftLayered(LAYERS, WIDTH, checkpointer);
      return {
        label,
        steps: LAYERS * WIDTH,
        once: () => app.invoke({ items: [] }, checkpointer ? { threadId: `dag-bench-${++thread}` } : {}),
        check: (state) => expectEqual('items', (state as { items: number[] }).items.length, LAYERS * WIDTH),
      };
    };
    context.log(`  dag mode: chain ${NODES} and layered ${LAYERS}×${WIDTH} × ${invokes}, interleaved`);
    const rows = (await interleaved(
      context,
      { prefix: 'dag mode' },
      [
        chain(`pregel, no checkpointer: chain ${NODES}`, {}),
        chain(`dag, no checkpointer: chain ${NODES}`, { mode: 'dag' }),
        chain(`dag, memory: chain ${NODES}`, { mode: 'dag', checkpointer: memory.store.checkpointer }),
        chain(`dag, SQLite: chain ${NODES}`, { mode: 'dag', checkpointer: sqlite.store.checkpointer }),
        layered(`dag, no checkpointer: layered ${LAYERS}×${WIDTH}`),
        layered(`dag, memory: layered ${LAYERS}×${WIDTH}`, memory.store.checkpointer),
        layered(`dag, SQLite: layered ${LAYERS}×${WIDTH}`, sqlite.store.checkpointer),
      ],
      invokes,
    )) as [Row, Row, Row, Row, Row, Row, Row];
    await memory.store.close();
    await sqlite.store.close();
    const [pregel, plain, withMemory, withSqlite, layeredPlain, layeredMemory, layeredSqlite] = rows;
    return [
      { ...pregel, heap: 'samples interleaved; heap not measured' },
      {
        ...plain,
        heap: '',
        notes: [`dag mode: chain, dag / pregel (no checkpointer) = ${ratio(plain, pregel)}`],
      },
      { ...withMemory, heap: '', notes: [`dag mode: chain, memory / none = ${ratio(withMemory, plain)}`] },
      { ...withSqlite, heap: '', notes: [`dag mode: chain, SQLite / none = ${ratio(withSqlite, plain)}`] },
      { ...layeredPlain, heap: '' },
      {
        ...layeredMemory,
        heap: '',
        notes: [`dag mode: layered, memory / none = ${ratio(layeredMemory, layeredPlain)}`],
      },
      {
        ...layeredSqlite,
        heap: '',
        // A layer's nodes finish together: their task writes are stored as one batch (one transaction).
        notes: [`dag mode: layered, SQLite / none = ${ratio(layeredSqlite, layeredPlain)}`],
      },
    ];
  },
};
