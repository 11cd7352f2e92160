// Ported from langchain-ai/langgraphjs: libs/langgraph-core/src/tests/pregel.test.ts "should handle bulk
// state updates", "update as input %s" and "batch update as input (map-reduce)". `updateState` and
// `bulkUpdateState` on a thread with no checkpoint write its first one (issue 39, item 5), and
// `asNode: START` writes a turn's input checkpoint, so a thread can be cloned from its start (item 6).
// LangGraph writes a turn's input in two checkpoints (`__input__`, then `__start__`); a Weft run stores
// it in one `input` checkpoint, so a clone gives one `START` update per turn.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryCheckpointer } from '../../src/checkpoint/memory-checkpointer.js';
import {
  appendReducer,
  Command,
  type Durability,
  END,
  Send,
  START,
  StateGraph,
  type StateSnapshot,
} from '../../src/index.js';

const shape = (state: StateSnapshot<unknown>) => ({
  values: state.values,
  next: state.next,
  step: state.step,
  tasks: state.tasks.map((task) => task.node),
});

describe('a thread with no checkpoint', () => {
  it('takes bulk updates: its first checkpoint is written as the named node (bulk state updates)', async () => {
    const saver = new MemoryCheckpointer();
    const graph = new StateGraph(z.object({ foo: z.string().optional(), baz: z.string().optional() }))
      .addNode('nodeA', () => ({ foo: 'bar' }))
      .addNode('nodeB', () => ({ baz: 'qux' }))
      .addEdge(START, 'nodeA')
      .addEdge('nodeA', 'nodeB')
      .addEdge('nodeB', END)
      .compile({ checkpointer: saver });

    await graph.bulkUpdateState('1', [{ updates: [{ values: { foo: 'bar' }, asNode: 'nodeA' }] }]);
    expect((await graph.getState('1'))?.next).toEqual(['nodeB']);
    await graph.bulkUpdateState('1', [
      {
        updates: [
          { values: { foo: 'updated' }, asNode: 'nodeA' },
          { values: { baz: 'new' }, asNode: 'nodeB' },
        ],
      },
    ]);
    expect((await graph.getState('1'))?.values).toEqual({ foo: 'updated', baz: 'new' });
    expect((await graph.getStateHistory('1')).map((state) => state.values)).toEqual([
      { foo: 'updated', baz: 'new' },
      { foo: 'bar' },
    ]);

    await graph.bulkUpdateState('2', [
      { updates: [{ values: { foo: 'bar' }, asNode: 'nodeA' }] },
      {
        updates: [
          { values: { foo: 'updated' }, asNode: 'nodeA' },
          { values: { baz: 'new' }, asNode: 'nodeB' },
        ],
      },
    ]);
    expect((await graph.getState('2'))?.values).toEqual({ foo: 'updated', baz: 'new' });
    expect(await graph.getStateHistory('2')).toHaveLength(2);

    await expect(
      graph.bulkUpdateState('2', [{ updates: [{ values: { foo: 'error' } }, { values: { baz: 'error' } }] }]),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(graph.bulkUpdateState('2', [])).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(graph.bulkUpdateState('2', [{ updates: [] }])).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await expect(
      graph.bulkUpdateState('2', [
        {
          updates: [
            { values: null, asNode: END },
            { values: null, asNode: START },
          ],
        },
      ]),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('takes updateState: values without asNode are the first input; invoke(null) then runs the graph', async () => {
    const graph = new StateGraph(z.object({ topic: z.string(), log: z.array(z.string()).default([]) }))
      .addNode('write', (s) => ({ log: [...s.log, `on ${s.topic}`] }))
      .addEdge(START, 'write')
      .addEdge('write', END)
      .compile({ checkpointer: new MemoryCheckpointer() });
    await graph.updateState('seeded', { topic: 'cats' });
    const state = await graph.getState('seeded');
    expect(state).toMatchObject({
      values: { topic: 'cats', log: [] },
      next: ['write'],
      step: 0,
      source: 'update',
    });
    expect(await graph.invoke(null, { threadId: 'seeded' })).toEqual({ topic: 'cats', log: ['on cats'] });
  });
});

describe('asNode: START writes a turn’s input checkpoint', () => {
  it.each(['sync', 'async'] as const)(
    'clones a thread turn by turn (update as input, %s)',
    async (durability: Durability) => {
      const graph = new StateGraph(z.object({ foo: z.string() }))
        .addNode('agent', () => ({ foo: 'agent' }))
        .addNode('tool', () => ({ foo: 'tool' }))
        .addEdge(START, 'agent')
        .addEdge('agent', 'tool')
        .addEdge('tool', END)
        .compile({ checkpointer: new MemoryCheckpointer() });
      expect(await graph.invoke({ foo: 'input' }, { threadId: '1', durability })).toEqual({ foo: 'tool' });
      expect(await graph.invoke({ foo: 'input' }, { threadId: '1', durability })).toEqual({ foo: 'tool' });
      const history = await graph.getStateHistory('1');

      await graph.bulkUpdateState('2', [
        { updates: [{ values: { foo: 'input' }, asNode: START }] },
        { updates: [{ values: { foo: 'agent' }, asNode: 'agent' }] },
        { updates: [{ values: { foo: 'tool' }, asNode: 'tool' }] },
        { updates: [{ values: { foo: 'input' }, asNode: START }] },
        { updates: [{ values: { foo: 'agent' }, asNode: 'agent' }] },
        { updates: [{ values: { foo: 'tool' }, asNode: 'tool' }] },
      ]);
      expect((await graph.getState('2'))?.values).toEqual({ foo: 'tool' });
      const cloned = await graph.getStateHistory('2');
      expect(cloned.map(shape)).toEqual(history.map(shape));
      expect(cloned.map((state) => state.source)).toEqual([
        'update',
        'update',
        'input',
        'update',
        'update',
        'input',
      ]);
    },
  );

  it('clones a map-reduce thread, Sends included (batch update as input)', async () => {
    const graph = new StateGraph(z.object({ foo: z.string(), tasks: z.array(z.number()).default([]) }), {
      reducers: {
        tasks: (acc: number[], task: number | number[]) => [...acc, ...(Array.isArray(task) ? task : [task])],
      },
    })
      .addNode('agent', () => ({ foo: 'agent' }))
      .addNode('task', (task: { index: number }) => ({ tasks: [task.index] }))
      .addNode(
        'map',
        () =>
          new Command({
            goto: [
              new Send('task', { index: 0 }),
              new Send('task', { index: 1 }),
              new Send('task', { index: 2 }),
            ],
            update: { foo: 'map' },
          }),
        { goto: ['task'] },
      )
      .addEdge(START, 'agent')
      .addEdge('agent', 'map')
      .addEdge('task', END)
      .compile({ checkpointer: new MemoryCheckpointer() });
    expect(await graph.invoke({ foo: 'input' }, { threadId: '1' })).toEqual({ foo: 'map', tasks: [0, 1, 2] });
    const history = await graph.getStateHistory('1');

    await graph.bulkUpdateState('2', [
      { updates: [{ values: { foo: 'input' }, asNode: START }] },
      { updates: [{ values: { foo: 'agent', tasks: [] }, asNode: 'agent' }] },
      {
        updates: [
          {
            values: new Command({
              goto: [
                new Send('task', { index: 0 }),
                new Send('task', { index: 1 }),
                new Send('task', { index: 2 }),
              ],
              update: { foo: 'map' },
            }),
            asNode: 'map',
          },
        ],
      },
      {
        updates: [
          { values: { tasks: [0] }, asNode: 'task' },
          { values: { tasks: [1] }, asNode: 'task' },
          { values: { tasks: [2] }, asNode: 'task' },
        ],
      },
    ]);
    expect((await graph.getState('2'))?.values).toEqual({ foo: 'map', tasks: [0, 1, 2] });
    expect((await graph.getStateHistory('2')).map(shape)).toEqual(history.map(shape));
  });

  it('on a thread with history starts a new turn: pending tasks and pauses are dropped', async () => {
    const graph = new StateGraph(z.object({ topic: z.string(), answer: z.string().optional() }))
      .addNode('ask', (s, ctx) => ({ answer: ctx.interrupt<string>(`about ${s.topic}?`) }))
      .addEdge(START, 'ask')
      .addEdge('ask', END)
      .compile({ checkpointer: new MemoryCheckpointer() });
    await graph.invoke({ topic: 'cats' }, { threadId: 't' });
    expect((await graph.getState('t'))?.interrupts).toHaveLength(1);
    await graph.updateState('t', { topic: 'dogs' }, { asNode: START });
    const state = await graph.getState('t');
    expect(state).toMatchObject({
      values: { topic: 'dogs' },
      next: ['ask'],
      interrupts: [],
      source: 'input',
      step: 0,
    });
    const paused = await graph.run(null, { threadId: 't' });
    expect(paused.interrupts[0]?.value).toBe('about dogs?');
  });

  it('names START as the way to write an input when asked for __input__', async () => {
    const graph = new StateGraph(z.object({ foo: z.string() }))
      .addNode('agent', () => ({ foo: 'agent' }))
      .addEdge(START, 'agent')
      .addEdge('agent', END)
      .compile({ checkpointer: new MemoryCheckpointer() });
    await expect(
      graph.updateState('x', { foo: 'input' }, { asNode: '__input__' as 'agent' }),
    ).rejects.toThrow(/asNode "__input__" is not a node .*START/);
  });
});

describe('seeding a DAG-mode thread', () => {
  it('starts its history with an input checkpoint, whatever the first update names', async () => {
    const runs: string[] = [];
    const app = new StateGraph(z.object({ log: z.array(z.string()).default([]) }), {
      reducers: { log: appendReducer },
    })
      .addNode('a', () => {
        runs.push('a');
        return { log: 'a' };
      })
      .addNode('b', () => {
        runs.push('b');
        return { log: 'b' };
      })
      .addEdge(START, 'a')
      .addEdge('a', 'b')
      .addEdge('b', END)
      .compile({ checkpointer: new MemoryCheckpointer(), mode: 'dag' });
    await app.updateState('input', { log: 'x' }, { asNode: START });
    expect(await app.getState('input')).toMatchObject({
      source: 'input',
      next: ['a'],
      values: { log: ['x'] },
    });
    expect(await app.invoke(null, { threadId: 'input' })).toEqual({ log: ['x', 'a', 'b'] });
    await app.updateState('plain', { log: 'x' });
    expect(await app.invoke(null, { threadId: 'plain' })).toEqual({ log: ['x', 'a', 'b'] });
    expect(runs).toEqual(['a', 'b', 'a', 'b']);
    runs.length = 0;
    await app.updateState('as-node', { log: 'y' }, { asNode: 'a' });
    expect(await app.invoke(null, { threadId: 'as-node' })).toEqual({ log: ['y', 'b'] });
    expect(runs).toEqual(['b']);
  });
});
