// Ported from langchain-ai/langgraphjs: libs/langgraph-core/src/tests/pregel.test.ts, "Subgraphs %s" →
// "nested graph interrupts parallel" and "…: subgraph in lambda", for every durability mode. A step
// pauses inside a subgraph (a breakpoint before `inner2`) while a sibling (`outer1`) finished: the
// sibling's update streams as it finishes, before the subgraph's own; the root `values` stream shows the
// sibling's write before the pause; a continuation's `values` stream starts with the checkpoint's values.
// The reference makes `inner1` sleep 100 ms so `outer1` finishes first; here `inner1` waits until
// `outer1` has run. Issue 39, item 4.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryCheckpointer } from '../../src/checkpoint/memory-checkpointer.js';
import { type Durability, END, START, StateGraph } from '../../src/index.js';

const concat = (a: string, b: string) => a + b;

/** Each run of `inner1` waits until `outer1` has run as often (they run in the same steps). */
function gate() {
  let opened = 0;
  let calls = 0;
  const waiting: Array<() => void> = [];
  return {
    wait: (): Promise<void> => {
      const mine = ++calls;
      return mine <= opened ? Promise.resolve() : new Promise<void>((resolve) => waiting.push(resolve));
    },
    open: () => {
      opened++;
      waiting.shift()?.();
    },
  };
}

function graphs(asLambda: boolean) {
  const outer1Ran = gate();
  const inner = new StateGraph(
    z.object({ myKey: z.string().default(''), myOtherKey: z.string().optional() }),
    {
      reducers: { myKey: concat },
    },
  )
    .addNode('inner1', async (state) => {
      await outer1Ran.wait();
      return { myKey: 'got here', myOtherKey: state.myKey };
    })
    .addNode('inner2', (state) => ({ myKey: ' and there', myOtherKey: state.myKey }))
    .addEdge(START, 'inner1')
    .addEdge('inner1', 'inner2')
    .addEdge('inner2', END)
    .compile({ name: 'inner', interruptBefore: ['inner2'] });
  const State = z.object({ myKey: z.string().default('') });
  return new StateGraph(State, { reducers: { myKey: concat } })
    .addNode(
      'inner',
      asLambda
        ? async (state, ctx) => ({ myKey: (await ctx.runSubgraph(inner, state, { key: 'inner' })).myKey })
        : inner,
    )
    .addNode('outer1', () => {
      outer1Ran.open();
      return { myKey: ' and parallel' };
    })
    .addNode('outer2', () => ({ myKey: ' and back again' }))
    .addEdge(START, 'inner')
    .addEdge(START, 'outer1')
    .addEdge(['inner', 'outer1'], 'outer2')
    .addEdge('outer2', END);
}

async function all<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const parts: T[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

/** A values part as the reference shows it: the state, or `{ __interrupt__ }` for the pause. */
const shown = (part: Record<string, unknown>) => ('__interrupt__' in part ? '__interrupt__' : part);

describe.each(['sync', 'async', 'exit'] as const)(
  'nested graph interrupts parallel (durability %s)',
  (durability: Durability) => {
    it.each([false, true])('subgraph in a function node: %s', async (asLambda) => {
      const builder = graphs(asLambda);
      const app = builder.compile({ checkpointer: new MemoryCheckpointer() });

      expect(await app.invoke({ myKey: '' }, { threadId: '1', durability })).toMatchObject({
        myKey: ' and parallel',
        __interrupt__: expect.any(Array),
      });
      expect(await app.invoke(null, { threadId: '1', durability })).toEqual({
        myKey: 'got here and there and parallel and back again',
      });

      // updates: the sibling that finished first comes first, then the subgraph's own update, then the pause.
      const updates = await all(
        app.stream({ myKey: '' }, { threadId: '2', durability, mode: 'updates', subgraphs: true }),
      );
      expect(updates.map((part) => [part.node, part.path.length === 0 ? 'root' : 'nested'])).toEqual([
        ['outer1', 'root'],
        ['inner1', 'nested'],
        ['__interrupt__', 'root'],
      ]);
      expect(updates[1]?.update).toEqual({ myKey: 'got here', myOtherKey: '' });
      const resumed = await all(app.stream(null, { threadId: '2', durability, mode: 'updates' }));
      expect(resumed.map((part) => [part.node, part.update])).toEqual([
        ['outer1', { myKey: ' and parallel' }],
        ['inner', { myKey: 'got here and there' }],
        ['outer2', { myKey: ' and back again' }],
      ]);

      // values: the sibling's write shows before the pause; a continuation starts with the checkpoint's values.
      const values = (thread: string, input: { myKey: string } | null, app2 = app) =>
        all(app2.stream(input, { threadId: thread, durability, mode: 'values' })).then((parts) =>
          parts.map((part) => shown(part as Record<string, unknown>)),
        );
      expect(await values('3', { myKey: '' })).toEqual([
        { myKey: '' },
        { myKey: ' and parallel' },
        '__interrupt__',
      ]);
      expect(await values('3', null)).toEqual([
        { myKey: '' },
        { myKey: 'got here and there and parallel' },
        { myKey: 'got here and there and parallel and back again' },
      ]);

      // A breakpoint before the parallel node.
      const before = builder.compile({ checkpointer: new MemoryCheckpointer(), interruptBefore: ['outer1'] });
      expect(await values('4', { myKey: '' }, before)).toEqual([{ myKey: '' }, '__interrupt__']);
      expect(await values('4', null, before)).toEqual([
        { myKey: '' },
        { myKey: ' and parallel' },
        '__interrupt__',
      ]);
      expect(await values('4', null, before)).toEqual([
        { myKey: '' },
        { myKey: 'got here and there and parallel' },
        { myKey: 'got here and there and parallel and back again' },
      ]);

      // A breakpoint after the parallel node.
      const after = builder.compile({ checkpointer: new MemoryCheckpointer(), interruptAfter: ['outer1'] });
      expect(await values('5', { myKey: '' }, after)).toEqual([
        { myKey: '' },
        { myKey: ' and parallel' },
        '__interrupt__',
      ]);
      expect(await values('5', null, after)).toEqual([
        { myKey: '' },
        { myKey: 'got here and there and parallel' },
        '__interrupt__',
      ]);
      expect(await values('5', null, after)).toEqual([
        { myKey: 'got here and there and parallel' },
        { myKey: 'got here and there and parallel and back again' },
      ]);
    });
  },
);
