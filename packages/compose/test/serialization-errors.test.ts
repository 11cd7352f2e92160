import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryCheckpointer } from '../src/checkpoint/memory-checkpointer.js';
import {
  appendReducer,
  Command,
  END,
  SerializationError,
  START,
  StateGraph,
  WeftError,
} from '../src/index.js';

class Money {
  constructor(readonly cents: number) {}
}

const State = z.object({ log: z.array(z.string()).default([]), amount: z.unknown().optional() });
const options = { reducers: { log: appendReducer } };

/** A node that records that it ran and appends its name to the log. */
function logged(runs: string[], name: string) {
  return () => {
    runs.push(name);
    return { log: name };
  };
}

/** What a failed run rejected with, checked to be a `SERIALIZATION` error. */
async function serializationError(run: Promise<unknown>): Promise<SerializationError> {
  const error = await run.catch((e: unknown) => e);
  expect(WeftError.isInstance(error) && error.code).toBe('SERIALIZATION');
  expect(error).toBeInstanceOf(SerializationError);
  return error as SerializationError;
}

describe('serialization errors at checkpoint time', () => {
  it('a class instance in state fails naming the node and the channel; the last checkpoint stays resumable', async () => {
    const saver = new MemoryCheckpointer();
    const runs: string[] = [];
    let plain = false;
    const app = new StateGraph(State, options)
      .addNode('a', logged(runs, 'a'))
      .addNode('price', () => {
        runs.push('price');
        return { log: 'price', amount: plain ? { cents: 250 } : new Money(250) };
      })
      .addNode('c', logged(runs, 'c'))
      .addEdge(START, 'a')
      .addEdge('a', 'price')
      .addEdge('price', 'c')
      .addEdge('c', END)
      .compile({ checkpointer: saver });
    const error = await serializationError(app.invoke({}, { threadId: 't' }));
    expect(error.message).toContain('node "price"');
    expect(error.message).toContain('channel "amount"');
    expect(error.message).toContain('Money');
    expect(error.path).toBe('amount');

    const state = await app.getState('t');
    expect(state?.values).toEqual({ log: ['a'] });
    expect(state?.next).toEqual(['price']);
    expect((await saver.list('t')).map((r) => r.step)).toEqual([0, -1]);

    plain = true;
    expect(await app.invoke(null, { threadId: 't' })).toEqual({
      log: ['a', 'price', 'c'],
      amount: { cents: 250 },
    });
    expect(runs).toEqual(['a', 'price', 'price', 'c']);
  });

  it('in a parallel step the failing task is named and its finished sibling is kept', async () => {
    const saver = new MemoryCheckpointer();
    const runs: string[] = [];
    let plain = false;
    const app = new StateGraph(State, options)
      .addNode('sibling', async () => logged(runs, 'sibling')())
      .addNode('price', async () => {
        runs.push('price');
        await new Promise((resolve) => setTimeout(resolve, 5));
        return { amount: plain ? 250 : new Money(250) };
      })
      .addEdge(START, 'sibling')
      .addEdge(START, 'price')
      .addEdge(['sibling', 'price'], END)
      .compile({ checkpointer: saver });
    const error = await serializationError(app.invoke({}, { threadId: 't' }));
    expect(error.message).toContain('node "price"');
    expect(error.message).toContain('channel "amount"');
    const state = await app.getState('t');
    expect(state?.tasks.map((t) => [t.node, t.done])).toEqual([
      ['sibling', true],
      ['price', false],
    ]);
    plain = true;
    expect(await app.invoke(null, { threadId: 't' })).toEqual({ log: ['sibling'], amount: 250 });
    expect(runs).toEqual(['sibling', 'price', 'price']);
  });

  it('an input that cannot be stored fails before anything is stored', async () => {
    const saver = new MemoryCheckpointer();
    const app = new StateGraph(State, options)
      .addNode('a', () => ({ log: 'a' }))
      .addEdge(START, 'a')
      .addEdge('a', END)
      .compile({ checkpointer: saver });
    const error = await serializationError(app.invoke({ amount: new Money(1) }, { threadId: 't' }));
    expect(error.message).toContain('the run input');
    expect(error.message).toContain('channel "amount"');
    expect(await app.getState('t')).toBeUndefined();
  });

  it('tagged values (Date, Map, Set, bigint) and Commands of parallel tasks survive a pause and resume', async () => {
    const saver = new MemoryCheckpointer();
    const build = () =>
      new StateGraph(State, options)
        .addNode('late', () => ({ log: 'late' }))
        .addNode('route', async () => new Command({ update: { log: 'route' }, goto: 'late' }), {
          goto: ['late'],
        })
        .addNode('tagged', async () => ({
          amount: { at: new Date(0), seen: new Set(['x']), by: new Map([['k', 1n]]) },
        }))
        .addNode('ask', async (_s, ctx) => ({ log: `ask:${ctx.interrupt<string>('?')}` }))
        .addEdge(START, 'route')
        .addEdge(START, 'tagged')
        .addEdge(START, 'ask')
        .addEdge(['tagged', 'ask'], END)
        .addEdge('late', END)
        .compile({ checkpointer: saver });
    expect((await build().run({}, { threadId: 't' })).status).toBe('interrupted');
    const done = await build().invoke(new Command({ resume: 'ok' }), { threadId: 't' });
    expect(done).toEqual({
      log: ['route', 'ask:ok', 'late'],
      amount: { at: new Date(0), seen: new Set(['x']), by: new Map([['k', 1n]]) },
    });
  });
});
