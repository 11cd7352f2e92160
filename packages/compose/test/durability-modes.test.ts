import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { MemoryCheckpointer } from '../src/checkpoint/memory-checkpointer.js';
import type { RunEvent } from '../src/index.js';
import { appendReducer, Command, END, START, StateGraph } from '../src/index.js';

const Log = z.object({ log: z.array(z.string()).default([]) });
const options = { reducers: { log: appendReducer } };
type Durability = 'sync' | 'async' | 'exit';

/**
 * `a → b → c → d` (four steps). Each node records how many checkpoints the store held when it started;
 * `c` throws while `failures.c` is positive, `b` asks for a value when `ask` is set.
 */
function buildChain(saver: MemoryCheckpointer, durability: Durability, control = { fail: 0, ask: false }) {
  const runs: string[] = [];
  const storedAtStart: Record<string, number> = {};
  const node = (name: string) => async () => {
    runs.push(name);
    storedAtStart[name] = (await saver.list('t')).length;
    if (name === 'c' && control.fail > 0) {
      control.fail--;
      throw new Error('c failed');
    }
    return { log: name };
  };
  const app = new StateGraph(Log, options)
    .addNode('a', node('a'))
    .addNode('b', async (_state, ctx) => {
      const write = await node('b')();
      return control.ask ? { log: `b:${ctx.interrupt<string>('?')}` } : write;
    })
    .addNode('c', node('c'))
    .addNode('d', node('d'))
    .addEdge(START, 'a')
    .addEdge('a', 'b')
    .addEdge('b', 'c')
    .addEdge('c', 'd')
    .addEdge('d', END)
    .compile({ checkpointer: saver, durability });
  return { app, runs, storedAtStart };
}

describe('durability modes', () => {
  it('sync stores each checkpoint before the next step starts', async () => {
    const saver = new MemoryCheckpointer();
    const { app, storedAtStart } = buildChain(saver, 'sync');
    const saved: number[] = [];
    const callbacks = {
      onEvent: (event: RunEvent) => {
        if (event.type === 'checkpoint-save') saved.push(event.step);
      },
    };
    await app.invoke({}, { threadId: 't', callbacks });
    // The input checkpoint, then one per completed step: a node of step k sees k + 1 stored.
    expect(storedAtStart).toEqual({ a: 1, b: 2, c: 3, d: 4 });
    expect((await saver.list('t')).map((r) => r.step)).toEqual([3, 2, 1, 0, -1]);
    expect(saved).toEqual([-1, 0, 1, 2, 3]);
  });

  it('async stores every checkpoint by the end of the run', async () => {
    const saver = new MemoryCheckpointer();
    const { app } = buildChain(saver, 'async');
    expect(await app.invoke({}, { threadId: 't' })).toEqual({ log: ['a', 'b', 'c', 'd'] });
    expect((await saver.list('t')).map((r) => r.step)).toEqual([3, 2, 1, 0, -1]);
    expect((await app.getState('t'))?.values).toEqual({ log: ['a', 'b', 'c', 'd'] });
  });

  it('exit stores one checkpoint, at the end', async () => {
    const saver = new MemoryCheckpointer();
    const { app, storedAtStart } = buildChain(saver, 'exit');
    await app.invoke({}, { threadId: 't' });
    expect(storedAtStart).toEqual({ a: 0, b: 0, c: 0, d: 0 });
    const records = await saver.list('t');
    expect(records.map((r) => [r.step, r.source, r.parentId])).toEqual([[3, 'input', null]]);
    expect((await app.getState('t'))?.values).toEqual({ log: ['a', 'b', 'c', 'd'] });
    // A second turn adds one more, linked to the first.
    await app.invoke({ log: 'again' }, { threadId: 't' });
    const after = await saver.list('t');
    expect(after).toHaveLength(2);
    expect(after[0]?.parentId).toBe(records[0]?.id);
  });

  it('exit reports its one stored checkpoint with a checkpoint-save event, and serializes nothing per step', async () => {
    const saver = new MemoryCheckpointer();
    const { app } = buildChain(saver, 'exit');
    const saves: string[] = [];
    const stringify = vi.spyOn(JSON, 'stringify');
    // JSON.stringify calls seen at each step's end: none may happen from one step to the next.
    const atStepEnd: number[] = [];
    await app.invoke(
      {},
      {
        threadId: 't',
        callbacks: {
          onEvent: (event) => {
            if (event.type === 'checkpoint-save') saves.push(event.checkpointId);
            if (event.type === 'step-end') atStepEnd.push(stringify.mock.calls.length);
          },
        },
      },
    );
    const total = stringify.mock.calls.length;
    stringify.mockRestore();
    expect(atStepEnd).toHaveLength(4);
    expect(new Set(atStepEnd).size).toBe(1);
    expect(total).toBeGreaterThan(atStepEnd[0] as number);
    expect(saves).toEqual((await saver.list('t')).map((r) => r.id));
  });

  it('exit stores at a pause, and the resumed run finishes from there', async () => {
    const saver = new MemoryCheckpointer();
    const control = { fail: 0, ask: true };
    const { app, runs } = buildChain(saver, 'exit', control);
    const paused = await app.run({}, { threadId: 't' });
    expect(paused.status).toBe('interrupted');
    expect((await saver.list('t')).map((r) => r.step)).toEqual([0]);
    expect((await app.getState('t'))?.interrupts).toHaveLength(1);
    expect(await app.invoke(new Command({ resume: 'yes' }), { threadId: 't' })).toEqual({
      log: ['a', 'b:yes', 'c', 'd'],
    });
    expect(runs).toEqual(['a', 'b', 'b', 'c', 'd']);
    expect((await saver.list('t')).map((r) => r.step)).toEqual([3, 0]);
  });

  it('exit stores on an error; continuing does not re-run the steps that completed', async () => {
    const saver = new MemoryCheckpointer();
    const { app, runs } = buildChain(saver, 'exit', { fail: 1, ask: false });
    await expect(app.invoke({}, { threadId: 't' })).rejects.toThrow('c failed');
    expect((await saver.list('t')).map((r) => r.step)).toEqual([1]);
    expect((await app.getState('t'))?.next).toEqual(['c']);
    expect(await app.invoke(null, { threadId: 't' })).toEqual({ log: ['a', 'b', 'c', 'd'] });
    expect(runs).toEqual(['a', 'b', 'c', 'c', 'd']);
  });

  it('sync stores on an error too (every completed step is there)', async () => {
    const saver = new MemoryCheckpointer();
    const { app, runs } = buildChain(saver, 'sync', { fail: 1, ask: false });
    await expect(app.invoke({}, { threadId: 't' })).rejects.toThrow('c failed');
    expect((await saver.list('t')).map((r) => r.step)).toEqual([1, 0, -1]);
    expect(await app.invoke(null, { threadId: 't' })).toEqual({ log: ['a', 'b', 'c', 'd'] });
    expect(runs).toEqual(['a', 'b', 'c', 'c', 'd']);
  });

  it('the run option overrides the compile option', async () => {
    const saver = new MemoryCheckpointer();
    const { app } = buildChain(saver, 'sync');
    await app.invoke({}, { threadId: 't', durability: 'exit' });
    expect(await saver.list('t')).toHaveLength(1);
  });

  it.each(['sync', 'async', 'exit'] as const)(
    '%s: a subgraph resumed after a pause hands its parent every write it made',
    async (durability) => {
      const inner = new StateGraph(Log, options)
        .addNode('i1', () => ({ log: 'i1' }))
        .addNode('i2', () => ({ log: 'i2' }))
        .addNode('ask', (_s, ctx) => ({ log: `ask:${ctx.interrupt<string>('?')}` }))
        .addNode('i3', () => ({ log: 'i3' }))
        .addNode('i4', () => ({ log: 'i4' }))
        .addEdge(START, 'i1')
        .addEdge('i1', 'i2')
        .addEdge('i2', 'ask')
        .addEdge('ask', 'i3')
        .addEdge('i3', 'i4')
        .addEdge('i4', END)
        .compile({ name: 'inner' });
      const app = new StateGraph(Log, options)
        .addNode('sub', inner)
        .addEdge(START, 'sub')
        .addEdge('sub', END)
        .compile({ checkpointer: new MemoryCheckpointer(), durability });
      expect((await app.run({}, { threadId: 't' })).status).toBe('interrupted');
      expect(await app.invoke(new Command({ resume: 'ok' }), { threadId: 't' })).toEqual({
        log: ['i1', 'i2', 'ask:ok', 'i3', 'i4'],
      });
    },
  );
});
