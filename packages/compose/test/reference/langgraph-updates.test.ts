// Ported from langchain-ai/langgraphjs: libs/langgraph-core/src/tests/pregel.test.ts "can invoke a nested
// graph" and "should allow undefined values returned in a node update". A node's update is a partial:
// each key written is checked against its field as an optional one (LangGraph validates updates against
// `interopZodObjectPartial` of the state schema), so `undefined` clears a key instead of failing; rules
// the schema states on the whole object are checked on the merged state. Issue 39, item 3.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryCheckpointer } from '../../src/checkpoint/memory-checkpointer.js';
import { appendReducer, END, START, StateGraph, StateUpdateError, sumReducer } from '../../src/index.js';

describe('a node update is checked as a partial of the state', () => {
  it('can invoke a nested graph whose node writes undefined to a required key', async () => {
    const inner = new StateGraph(z.object({ myKey: z.string(), myOtherKey: z.string() }))
      .addNode('up', (state) => ({ myKey: `${state.myKey} there`, myOtherKey: state.myOtherKey }))
      .addEdge(START, 'up')
      .addEdge('up', END)
      .compile();
    const neverCalled = () => {
      throw new Error('This should never be called');
    };
    const app = new StateGraph(z.object({ myKey: z.string(), neverCalled: z.custom<() => never>() }))
      .addNode('inner', inner)
      .addNode('side', (state) => ({ myKey: `${state.myKey} and back again` }))
      .addEdge(START, 'inner')
      .addEdge('inner', 'side')
      .addEdge('side', END)
      .compile();
    expect(await app.invoke({ myKey: 'my value', neverCalled })).toEqual({
      myKey: 'my value there and back again',
      neverCalled,
    });
  });

  it('lets a node write undefined: a last-value key is cleared, a reducer gets it', async () => {
    const app = new StateGraph(
      z.object({ test: z.string().optional(), reducerField: z.string().default('') }),
      { reducers: { reducerField: (current: string, update: string | undefined) => update ?? current } },
    )
      .addNode('updateTest', () => ({ test: 'test', reducerField: 'should not be wiped' }))
      .addNode('wipeFields', () => ({ test: undefined, reducerField: undefined }))
      .addEdge(START, 'updateTest')
      .addEdge('updateTest', 'wipeFields')
      .addEdge('wipeFields', END)
      .compile({ checkpointer: new MemoryCheckpointer() });
    const result = await app.invoke({}, { threadId: '102' });
    expect(result).toEqual({ reducerField: 'should not be wiped' });
    expect('test' in result && result.test !== undefined).toBe(false);
    const history = await app.getStateHistory('102');
    expect(history.map((state) => [state.step, state.values])).toEqual([
      [1, { reducerField: 'should not be wiped', test: undefined }],
      [0, { reducerField: 'should not be wiped', test: 'test' }],
      [-1, { reducerField: '' }],
    ]);
  });

  it('reads undefined as "nothing to add" for the ready reducers', async () => {
    const app = new StateGraph(
      z.object({
        log: z.array(z.string()).default([]),
        total: z.number().default(0),
        meta: z.object({ a: z.number() }).default({ a: 1 }),
      }),
      { reducers: { log: appendReducer, total: sumReducer } },
    )
      .addNode('first', () => ({ log: 'a', total: 2 }))
      .addNode('second', () => ({ log: undefined, total: undefined }))
      .addEdge(START, 'first')
      .addEdge('first', 'second')
      .addEdge('second', END)
      .compile();
    expect(await app.invoke({})).toEqual({ log: ['a'], total: 2, meta: { a: 1 } });
  });

  it('still fails a value its field rejects, naming the node and key', async () => {
    const app = new StateGraph(z.object({ name: z.string().min(2) }))
      .addNode('bad', () => ({ name: 'x' }))
      .addEdge(START, 'bad')
      .addEdge('bad', END)
      .compile();
    await expect(app.invoke({ name: 'ok' })).rejects.toMatchObject({
      code: 'INVALID_UPDATE',
      node: 'bad',
      key: 'name',
    });
  });

  it('checks rules on the whole state against the merged state, naming the node', async () => {
    const State = z
      .object({ low: z.number(), high: z.number() })
      .refine((s) => s.low <= s.high, { message: 'low must not exceed high', path: ['low'] });
    const app = new StateGraph(State)
      .addNode('raise', (s) => ({ low: s.low + 5 }))
      .addEdge(START, 'raise')
      .addEdge('raise', END)
      .compile();
    expect(await app.invoke({ low: 1, high: 9 })).toEqual({ low: 6, high: 9 });
    const error = await app.invoke({ low: 1, high: 3 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StateUpdateError);
    expect(error).toMatchObject({ code: 'INVALID_UPDATE', node: 'raise', key: 'low' });
    expect((error as StateUpdateError).issues[0]?.message).toBe('low must not exceed high');
  });
});
