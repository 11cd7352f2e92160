// Ported from langchain-ai/langgraphjs: libs/langgraph-core/src/tests/python_port/checkpoint.test.ts
// "should test pending writes resume functionality" (test_pending_writes_resume) and
// libs/langgraph-core/src/tests/pregel.test.ts "should handle partial pending checkpoint". A finished task
// of a failed or paused step is on record and never runs again, so `getState().next` does not list it;
// reading that checkpoint by id shows it as it was stored (every task next). Issue 39, item 2.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryCheckpointer } from '../../src/checkpoint/memory-checkpointer.js';
import { END, Send, START, StateGraph, sumReducer } from '../../src/index.js';

describe('getState().next leaves out the tasks that already finished', () => {
  it('after a failed step (pending writes resume)', async () => {
    const calls = { one: 0, two: 0 };
    let twoFails = true;
    const app = new StateGraph(z.object({ value: z.number().default(0) }), {
      reducers: { value: sumReducer },
    })
      .addNode('one', async () => {
        calls.one += 1;
        return { value: 2 };
      })
      .addNode(
        'two',
        async () => {
          calls.two += 1;
          await Promise.resolve();
          if (twoFails) throw new Error("I'm not good");
          return { value: 3 };
        },
        { retry: { maxAttempts: 2, initialDelayMs: 1, jitter: false } },
      )
      .addEdge(START, 'one')
      .addEdge(START, 'two')
      .addEdge('one', END)
      .addEdge('two', END)
      .compile({ checkpointer: new MemoryCheckpointer() });

    await expect(app.invoke({ value: 1 }, { threadId: '1' })).rejects.toMatchObject({ node: 'two' });
    expect(calls).toEqual({ one: 1, two: 2 });
    const state = await app.getState('1');
    expect(state?.next).toEqual(['two']);
    expect(state?.values).toEqual({ value: 3 });
    expect(state?.tasks.map((task) => [task.node, task.done, task.error?.message])).toEqual([
      ['one', true, undefined],
      ['two', false, "I'm not good"],
    ]);

    // The checkpoint read by id shows what it stored: no pending writes applied, every task next.
    const raw = await app.getState('1', { checkpointId: state?.checkpointId as string });
    expect(raw?.values).toEqual({ value: 1 });
    expect(raw?.next).toEqual(['one', 'two']);

    await expect(app.invoke(null, { threadId: '1' })).rejects.toMatchObject({ node: 'two' });
    expect(calls).toEqual({ one: 1, two: 4 });
    twoFails = false;
    expect(await app.invoke(null, { threadId: '1' })).toEqual({ value: 6 });
    expect((await app.getState('1'))?.next).toEqual([]);
  });

  it('at a pause where a sibling finished (partial pending checkpoint)', async () => {
    let toolTwoCalls = 0;
    const app = new StateGraph(z.object({ my_key: z.string(), market: z.string() }), {
      reducers: { my_key: (a: string, b: string) => a + b },
    })
      .addNode('tool_one', () => ({ my_key: ' one' }))
      .addNode('tool_two', (state, ctx) => {
        toolTwoCalls += 1;
        if (state.market === 'DE') return { my_key: ctx.interrupt<string>('Just because...') };
        return { my_key: ' all good' };
      })
      .addConditionalEdges(START, (state) => ['tool_two', new Send('tool_one', state)], [
        'tool_one',
        'tool_two',
      ])
      .addEdge('tool_one', END)
      .addEdge('tool_two', END)
      .compile({ checkpointer: new MemoryCheckpointer() });

    const paused = await app.invoke({ my_key: 'value ⛰️', market: 'DE' }, { threadId: '2' });
    expect(paused).toMatchObject({
      my_key: 'value ⛰️ one',
      market: 'DE',
      __interrupt__: [{ id: expect.any(String), value: 'Just because...' }],
    });
    expect(toolTwoCalls).toBe(1);
    const state = await app.getState('2');
    expect(state?.values).toEqual({ my_key: 'value ⛰️ one', market: 'DE' });
    expect(state?.next).toEqual(['tool_two']);
    expect(state?.tasks.map((task) => [task.node, task.done, task.interrupts.length])).toEqual([
      ['tool_two', false, 1],
      ['tool_one', true, 0],
    ]);

    // Clearing the thread drops the pause and the unfinished task; the finished write stays.
    await app.updateState('2', null, { asNode: END });
    const cleared = await app.getState('2');
    expect(cleared).toMatchObject({ values: { my_key: 'value ⛰️ one', market: 'DE' }, next: [], tasks: [] });
    expect(cleared?.source).toBe('update');
  });
});
