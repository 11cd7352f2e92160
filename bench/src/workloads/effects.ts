// What recording an effect costs (#47, ADR 035): a one-node graph whose node makes one tool call, run
// as a new thread per invoke, plain (`await tool()`) against the same call as `ctx.effect` (its result
// stored at once as a task write, awaited, before the node goes on), interleaved, on the memory, SQLite
// and (with WEFT_PG_URL) PostgreSQL checkpointers. The ratio is the price of "once" per tool call.
import { type Checkpointer, END, START, StateGraph } from '@weft/compose';
import { z } from 'zod';
import { type StoreProbe, weftMemoryStore, weftPostgresStore, weftSqliteStore } from '../checkpointers.ts';
import { interleaved, ratio } from '../interleaved.ts';
import type { Row } from '../table.ts';
import { type BenchContext, measures, pick, type Workload } from '../workload.ts';

const State = z.object({ order: z.string(), receipt: z.string().optional() });

/** The tool: a charge that answers at once (the bench measures the engine, not a network). */
const charge = (order: string, key: string) => ({ id: `ch_${order}`, key: key.length });

function chargeGraph(checkpointer: Checkpointer, asEffect: boolean) {
  return new StateGraph(State)
    .addNode('charge', async (s, ctx) => {
      const result = asEffect
        ? await ctx.effect('charge', (effect) => charge(s.order, effect.idempotencyKey))
        : await Promise.resolve(charge(s.order, ''));
      return { receipt: result.id };
    })
    .addEdge(START, 'charge')
    .addEdge('charge', END)
    .compile({ checkpointer });
}

async function storeRows(context: BenchContext, name: string, probe: StoreProbe, invokes: number) {
  if (!('store' in probe)) {
    context.log(`  effects: ${name} skipped: ${probe.pending}`);
    return [];
  }
  const { checkpointer } = probe.store;
  const plain = chargeGraph(checkpointer, false);
  const effect = chargeGraph(checkpointer, true);
  let thread = 0;
  const once = (app: typeof plain) => () =>
    app.invoke({ order: 'o1' }, { threadId: `effects-${process.pid}-${thread++}` });
  const check = (state: unknown) => {
    if ((state as { receipt?: string }).receipt !== 'ch_o1') throw new Error('no receipt');
  };
  try {
    const [base, recorded] = (await interleaved(
      context,
      { prefix: `effects ${name}` },
      [
        { label: 'plain tool call', once: once(plain), check },
        { label: 'ctx.effect (recorded)', once: once(effect), check },
      ],
      invokes,
    )) as [Row, Row];
    return [
      { ...base, heap: 'samples interleaved; heap not measured' },
      {
        ...recorded,
        heap: '',
        notes: [`effects ${name}: ctx.effect / plain tool call = ${ratio(recorded, base)}`],
      },
    ];
  } finally {
    await probe.store.close();
  }
}

export const effectsWorkload: Workload = {
  name: 'effects',
  async run(context: BenchContext) {
    if (!measures(context, 'weft')) return [];
    const invokes = pick(context, 100, 3);
    const rows: Row[] = [];
    rows.push(...(await storeRows(context, 'memory', await weftMemoryStore(), invokes)));
    rows.push(...(await storeRows(context, 'SQLite', await weftSqliteStore(), invokes)));
    const url = process.env.WEFT_PG_URL;
    if (url) rows.push(...(await storeRows(context, 'PostgreSQL', await weftPostgresStore(url), invokes)));
    else context.log('  effects: WEFT_PG_URL is not set; PostgreSQL rows skipped');
    return rows;
  },
};
