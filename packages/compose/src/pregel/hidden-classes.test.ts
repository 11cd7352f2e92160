// Objects the engine reads on every step, and objects it hands every consumer, keep one V8 hidden class
// across runs (ADR 025, fifth pass). A new class per run makes every read of them megamorphic; the
// engine's spreads-plus-a-field did that once optimized, so each check runs its graph until it is.
import { setFlagsFromString } from 'node:v8';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryCheckpointer } from '../checkpoint/memory-checkpointer.js';
import type { RunEvent } from '../events/run-event.js';
import { StateGraph } from '../graph/state-graph.js';
import { END, START } from '../vocabulary/constants.js';
import type { RunContext } from './run-context.js';

/** Runs enough for V8 to optimize the engine's hot functions (the old code split maps only then). */
const RUNS = 1500;

let sameMap: (a: object, b: object) => boolean;

beforeAll(() => {
  // Natives syntax is read when a function is compiled: the flag holds for the function made below.
  setFlagsFromString('--allow-natives-syntax');
  sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as typeof sameMap;
});

const Counter = z.object({ n: z.number() });

/** The last event of one `events` stream of `graph` that `wanted` picks. */
async function lastEvent(
  graph: { stream(input: { n: number }, options: { mode: 'events' }): AsyncIterable<RunEvent> },
  wanted: (event: RunEvent) => boolean,
): Promise<RunEvent> {
  let found: RunEvent | undefined;
  for await (const event of graph.stream({ n: 0 }, { mode: 'events' })) if (wanted(event)) found = event;
  if (!found) throw new Error('no such event in the stream');
  return found;
}

describe('one hidden class across runs', () => {
  it('for the events of a nested run, stamped with its scope', async () => {
    const inner = new StateGraph(Counter)
      .addNode('x', (s) => ({ n: s.n + 1 }))
      .addEdge(START, 'x')
      .addEdge('x', END)
      .compile();
    const outer = new StateGraph(Counter)
      .addNode('sub', inner)
      .addEdge(START, 'sub')
      .addEdge('sub', END)
      .compile();
    const nestedEnd = () => lastEvent(outer, (e) => e.type === 'node-end' && e.scope !== undefined);
    const first = await nestedEnd();
    for (let i = 0; i < RUNS; i++) await nestedEnd();
    const later = await nestedEnd();
    expect(later.scope).toBe(first.scope);
    expect(sameMap(first, later)).toBe(true);
  });

  it('for the events a node reports (ctx.report)', async () => {
    const graph = new StateGraph(Counter)
      .addNode('a', async (s, ctx) => {
        await ctx.report({ type: 'tool-start', tool: 'search', toolCallId: 'c1', arguments: '{}' });
        return { n: s.n + 1 };
      })
      .addEdge(START, 'a')
      .addEdge('a', END)
      .compile();
    const reported = () => lastEvent(graph, (e) => e.type === 'tool-start');
    const first = await reported();
    for (let i = 0; i < RUNS; i++) await reported();
    const later = await reported();
    expect(later).toMatchObject({ tool: 'search', node: 'a', step: 0 });
    expect(sameMap(first, later)).toBe(true);
  });

  it('for the run() result, plain and checkpointed', async () => {
    const graph = new StateGraph(Counter)
      .addNode('a', (s) => ({ n: s.n + 1 }))
      .addEdge(START, 'a')
      .addEdge('a', END);
    const plain = graph.compile();
    const durable = graph.compile({ checkpointer: new MemoryCheckpointer() });
    const first = await plain.run({ n: 0 });
    let thread = 0;
    const firstDurable = await durable.run({ n: 0 }, { threadId: `t${thread++}` });
    for (let i = 0; i < RUNS; i++) {
      await plain.run({ n: 0 });
      await durable.run({ n: 0 }, { threadId: `t${thread++}` });
    }
    expect(sameMap(first, await plain.run({ n: 0 }))).toBe(true);
    expect(sameMap(firstDurable, await durable.run({ n: 0 }, { threadId: `t${thread++}` }))).toBe(true);
    expect(sameMap(first, firstDurable)).toBe(true);
  });

  it('for the run context, plain, checkpointed and nested', async () => {
    const seen: RunContext[] = [];
    const record = (s: { n: number }, ctx: unknown) => {
      seen.push((ctx as { run: RunContext }).run);
      return { n: s.n + 1 };
    };
    const inner = new StateGraph(Counter)
      .addNode('x', record)
      .addEdge(START, 'x')
      .addEdge('x', END)
      .compile();
    const graph = new StateGraph(Counter)
      .addNode('a', record)
      .addNode('sub', inner)
      .addEdge(START, 'a')
      .addEdge('a', 'sub')
      .addEdge('sub', END);
    const plain = graph.compile();
    const durable = graph.compile({ checkpointer: new MemoryCheckpointer() });
    let thread = 0;
    const both = async () => {
      await plain.invoke({ n: 0 });
      await durable.invoke({ n: 0 }, { threadId: `t${thread++}` });
    };
    await both();
    const [plainRoot, plainNested, durableRoot, durableNested] = seen.splice(0) as [
      RunContext,
      RunContext,
      RunContext,
      RunContext,
    ];
    for (let i = 0; i < RUNS; i++) await both();
    seen.length = 0;
    await both();
    const later = seen as [RunContext, RunContext, RunContext, RunContext];
    expect(durableRoot.durable).toBeDefined();
    for (const context of [plainNested, durableRoot, durableNested, ...later]) {
      expect(sameMap(plainRoot, context)).toBe(true);
    }
  });
});
