// The cost of observing a run: the 100-node chain under invoke, under stream('updates') and under the
// full event stream (Weft's `events` mode, LangGraph's `streamEvents` v2).
import { chainEventBursts, readyEvents } from '../graphs/event-floors.ts';
import { floorChain } from '../graphs/floor.ts';
import { langGraphChain, langGraphConfig } from '../graphs/langgraph-graphs.ts';
import { type Counter, weftChain } from '../graphs/weft-graphs.ts';
import { expectEqual } from '../harness.ts';
import { interleaved, ratio, share } from '../interleaved.ts';
import type { Row } from '../table.ts';
import { type BenchContext, batched, compareRow, measures, pick, type Workload } from '../workload.ts';

/** What a consumer saw: parts received and, for event streams, how many node-end events. */
interface Observed {
  readonly parts: number;
  readonly nodeEnds: number;
}

const NODES = 100;
const isNodeName = (name: unknown) => typeof name === 'string' && /^n\d+$/.test(name);

/** Floor: the plain chain as an async generator, yielding each update (or a start/end event pair). */
async function* floorStream(events: boolean): AsyncGenerator<{ type: string; node: string; n: number }> {
  let state: Counter = { n: 0 };
  for (let i = 0; i < NODES; i++) {
    const node = `n${i}`;
    if (events) yield { type: 'node-start', node, n: state.n };
    state = { ...state, ...(await (async () => ({ n: state.n + 1 }))()) };
    yield { type: events ? 'node-end' : 'update', node, n: state.n };
  }
}

/** Floor of a batched event stream: the plain chain yielding each node's start/end events as one array. */
async function* floorBatches(): AsyncGenerator<{ type: string; node: string; n: number }[]> {
  let state: Counter = { n: 0 };
  for (let i = 0; i < NODES; i++) {
    const node = `n${i}`;
    const start = { type: 'node-start', node, n: state.n };
    state = { ...state, ...(await (async () => ({ n: state.n + 1 }))()) };
    yield [start, { type: 'node-end', node, n: state.n }];
  }
}

async function consumeBatches(
  stream: AsyncIterable<readonly unknown[]>,
  isNodeEnd: (part: unknown) => boolean,
): Promise<Observed> {
  let parts = 0;
  let nodeEnds = 0;
  for await (const batch of stream) {
    for (const part of batch) {
      parts++;
      if (isNodeEnd(part)) nodeEnds++;
    }
  }
  return { parts, nodeEnds };
}

async function consume(
  stream: AsyncIterable<unknown>,
  isNodeEnd: (part: unknown) => boolean,
): Promise<Observed> {
  let parts = 0;
  let nodeEnds = 0;
  for await (const part of stream) {
    parts++;
    if (isNodeEnd(part)) nodeEnds++;
  }
  return { parts, nodeEnds };
}

const weftNodeEnd = (part: unknown) => (part as { type?: string }).type === 'node-end';
const langGraphNodeEnd = (part: unknown) => {
  const event = part as { event?: string; name?: string };
  return event.event === 'on_chain_end' && isNodeName(event.name);
};
const floorNodeEnd = (part: unknown) => (part as { type?: string }).type === 'node-end';

type Runs = Partial<Record<'weft' | 'langgraph' | 'floor', () => Promise<Observed>>>;

function streamRow(context: BenchContext, workload: string, once: Runs, check: (seen: Observed) => void) {
  const invokes = 1;
  return compareRow<Observed>(context, {
    workload: `${workload}: chain ${NODES}`,
    unit: 'ms/invoke',
    scale: (ms: number) => ms / invokes,
    runs: batched(invokes, once),
    once,
    check,
  });
}

export const streamingWorkload: Workload = {
  name: 'streaming',
  async run(context: BenchContext) {
    const weft = weftChain(NODES);
    const langGraph = langGraphChain(NODES);
    const floor = floorChain(NODES);
    const final = (state: Counter): Observed => ({ parts: state.n, nodeEnds: 0 });
    const invoke: Runs = {
      weft: async () => final(await weft.invoke({ n: 0 })),
      langgraph: async () => final(await langGraph.invoke({ n: 0 }, langGraphConfig())),
      floor: async () => final(await floor({ n: 0 })),
    };
    const updates: Runs = {
      weft: () => consume(weft.stream({ n: 0 }, { mode: 'updates' }), () => false),
      langgraph: async () =>
        consume(
          await langGraph.stream({ n: 0 }, { ...langGraphConfig(), streamMode: 'updates' }),
          () => false,
        ),
      floor: () => consume(floorStream(false), () => false),
    };
    const events: Runs = {
      weft: () => consume(weft.stream({ n: 0 }, { mode: 'events' }), weftNodeEnd),
      langgraph: () =>
        consume(langGraph.streamEvents({ n: 0 }, { ...langGraphConfig(), version: 'v2' }), langGraphNodeEnd),
      floor: () => consume(floorStream(true), floorNodeEnd),
    };
    // LangGraph's `streamEvents` has no batched form, so this row has no LangGraph cell.
    const eventBatches: Runs = {
      weft: () => consumeBatches(weft.stream({ n: 0 }, { mode: 'events', batched: true }), weftNodeEnd),
      floor: () => consumeBatches(floorBatches(), floorNodeEnd),
    };
    const rows = [
      await streamRow(context, 'stream baseline, invoke', invoke, (seen) =>
        expectEqual('final n', seen.parts, NODES),
      ),
      await streamRow(context, 'stream updates', updates, (seen) =>
        expectEqual('update parts', seen.parts, NODES),
      ),
      await streamRow(context, 'stream events', events, (seen) =>
        expectEqual('node-end events', seen.nodeEnds, NODES),
      ),
      await streamRow(context, 'stream events, batched', eventBatches, (seen) =>
        expectEqual('node-end events', seen.nodeEnds, NODES),
      ),
    ];
    if (!measures(context, 'weft')) return rows;
    // The events one Weft run emits, kept for the turns floor (the same objects, handed out again).
    const recorded: unknown[] = [];
    for await (const event of weft.stream({ n: 0 }, { mode: 'events' })) recorded.push(event);
    const makeBursts = chainEventBursts(NODES);
    const floors: Floors = {
      turns: () => consume(readyEvents(recorded), weftNodeEnd),
      objects: () => consumeBatches(makeBursts(), weftNodeEnd),
    };
    return [...rows, ...(await backToBack(context, invoke, events, eventBatches, floors))];
  },
};

/** The two floors of goal 6 (`graphs/event-floors.ts`): each resolves with what its consumer saw. */
interface Floors {
  /** A Weft run's events, already made, one per `for await` turn. */
  readonly turns: () => Promise<Observed>;
  /** The same events made afresh (documented fields, one clock read a step), handed over in bursts. */
  readonly objects: () => Promise<Observed>;
}

/** `1 + Σ floor / base`, as `1.23×`: the least a stream paying the floors on top of the run can cost. */
function atLeast(base: Row, ...floors: Row[]): string {
  const parts = floors.map((floor) => share(floor, base));
  if (parts.some((part) => part === undefined)) return '?';
  return `${(1 + (parts as number[]).reduce((sum, part) => sum + part, 0)).toFixed(2)}×`;
}

/**
 * Goal 6 of issue #28 (`events` ≤ 1.5× `invoke`), measured back to back: Weft's invoke, event stream and
 * batched event stream of one graph, and the two floors of an event stream of that run, interleaved in
 * rotating order so that the machine's load falls on all five alike (the rows above are timed one after
 * another).
 */
async function backToBack(
  context: BenchContext,
  invoke: Runs,
  events: Runs,
  eventBatches: Runs,
  floors: Floors,
): Promise<Row[]> {
  const invokes = pick(context, 50, 2);
  const nodeEnds = (seen: unknown) => expectEqual('node-end events', (seen as Observed).nodeEnds, NODES);
  context.log(`  stream, Weft back to back: chain ${NODES} × ${invokes}, five variants interleaved`);
  const [base, all, grouped, turns, objects] = (await interleaved(
    context,
    { prefix: 'stream back to back', size: `chain ${NODES}` },
    [
      {
        label: 'invoke',
        once: invoke.weft as () => Promise<Observed>,
        check: (seen) => expectEqual('final n', (seen as Observed).parts, NODES),
      },
      { label: 'events', once: events.weft as () => Promise<Observed>, check: nodeEnds },
      { label: 'events batched', once: eventBatches.weft as () => Promise<Observed>, check: nodeEnds },
      { label: 'floor: events handed out one per turn', once: floors.turns, check: nodeEnds },
      { label: 'floor: events made, in bursts', once: floors.objects, check: nodeEnds },
    ],
    invokes,
  )) as [Row, Row, Row, Row, Row];
  return [
    { ...base, heap: 'samples interleaved; heap not measured' },
    { ...all, heap: '', notes: [`stream: events / invoke = ${ratio(all, base)} back to back`] },
    {
      ...grouped,
      heap: '',
      notes: [`stream: events batched / invoke = ${ratio(grouped, base)} back to back`],
    },
    {
      ...turns,
      heap: '',
      notes: [
        `stream: the turns alone cost ${ratio(turns, base)} of invoke, so an event per turn, made and handed out, costs at least ${atLeast(base, turns, objects)} invoke`,
      ],
    },
    {
      ...objects,
      heap: '',
      notes: [
        `stream: the events alone, made and batched, cost ${ratio(objects, base)} of invoke, so a batched stream costs at least ${atLeast(base, objects)} invoke`,
      ],
    },
  ];
}
