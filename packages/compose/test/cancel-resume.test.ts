import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryCheckpointer } from '../src/checkpoint/memory-checkpointer.js';
import { appendReducer, type Checkpointer, END, START, StateGraph, WeftError } from '../src/index.js';

const Log = z.object({ log: z.array(z.string()).default([]) });
const options = { reducers: { log: appendReducer } };

/** A node that records that it ran and appends its name to the log. */
function logged(runs: string[], name: string) {
  return () => {
    runs.push(name);
    return { log: name };
  };
}

/** Resolves once `check` holds, polling on the event loop (bounded). */
async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  throw new Error('condition not reached');
}

/** Waits for `signal` to fire and rejects with its reason (what a cancellable call does). */
function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/**
 * `a → [fast, slow] → after`. On its first run `slow` waits until `fast`'s write is stored, then cancels
 * the run and waits for the signal, as a model call would.
 */
function buildFanOut(
  saver: MemoryCheckpointer,
  controller: AbortController,
  durability: 'sync' | 'async' | 'exit' = 'sync',
) {
  const runs: string[] = [];
  const app = new StateGraph(Log, options)
    .addNode('a', logged(runs, 'a'))
    .addNode('fast', async () => logged(runs, 'fast')())
    .addNode('slow', async (_state, ctx) => {
      runs.push('slow');
      if (runs.filter((r) => r === 'slow').length === 1) {
        // With `exit`, nothing is stored while the run goes on: `fast` finishing is enough.
        await until(async () =>
          durability === 'exit' ? runs.includes('fast') : ((await saver.get('t'))?.writes.length ?? 0) > 0,
        );
        controller.abort(new Error('user pressed stop'));
        await aborted(ctx.signal);
      }
      return { log: 'slow' };
    })
    .addNode('after', logged(runs, 'after'))
    .addEdge(START, 'a')
    .addEdge('a', 'fast')
    .addEdge('a', 'slow')
    .addEdge(['fast', 'slow'], 'after')
    .addEdge('after', END)
    .compile({ checkpointer: saver, durability });
  return { app, runs };
}

const complete = { log: ['a', 'fast', 'slow', 'after'] };

describe('cancel and resume', () => {
  it.each(['sync', 'async', 'exit'] as const)(
    '%s: a cancelled step keeps the task that finished; resuming runs only the rest',
    async (durability) => {
      const saver = new MemoryCheckpointer();
      const controller = new AbortController();
      const { app, runs } = buildFanOut(saver, controller, durability);
      const error = await app
        .invoke({}, { threadId: 't', signal: controller.signal })
        .catch((e: unknown) => e);
      expect(WeftError.isInstance(error) && error.code).toBe('ABORTED');
      const state = await app.getState('t');
      // The latest state shows the write of the task that finished (it is kept and never runs again).
      expect(state?.values).toEqual({ log: ['a', 'fast'] });
      const checkpoint = await app.getState('t', { checkpointId: state?.checkpointId as string });
      expect(checkpoint?.values).toEqual({ log: ['a'] });
      expect(state?.tasks.map((t) => [t.node, t.done])).toEqual([
        ['fast', true],
        ['slow', false],
      ]);
      expect(await app.invoke(null, { threadId: 't' })).toEqual(complete);
      expect(runs).toEqual(['a', 'fast', 'slow', 'slow', 'after']);
    },
  );

  it('a run cancelled between steps resumes from its last checkpoint', async () => {
    const saver = new MemoryCheckpointer();
    const controller = new AbortController();
    const runs: string[] = [];
    const app = new StateGraph(Log, options)
      .addNode('one', logged(runs, 'one'))
      .addNode('two', () => {
        runs.push('two');
        if (runs.length === 2) controller.abort();
        return { log: 'two' };
      })
      .addNode('three', logged(runs, 'three'))
      .addEdge(START, 'one')
      .addEdge('one', 'two')
      .addEdge('two', 'three')
      .addEdge('three', END)
      .compile({ checkpointer: saver });
    await expect(app.invoke({}, { threadId: 't', signal: controller.signal })).rejects.toMatchObject({
      code: 'ABORTED',
    });
    // `two` finished before the loop saw the abort: its step was stored.
    expect((await app.getState('t'))?.next).toEqual(['three']);
    expect(await app.invoke(null, { threadId: 't' })).toEqual({ log: ['one', 'two', 'three'] });
    expect(runs).toEqual(['one', 'two', 'three']);
  });

  it('breaking out of a stream cancels the run, which then resumes where it stopped', async () => {
    const saver = new MemoryCheckpointer();
    const runs: string[] = [];
    let stopped = false;
    const app = new StateGraph(Log, options)
      .addNode('one', logged(runs, 'one'))
      .addNode('two', async (_s, ctx) => {
        runs.push('two');
        if (!stopped) await aborted(ctx.signal);
        return { log: 'two' };
      })
      .addEdge(START, 'one')
      .addEdge('one', 'two')
      .addEdge('two', END)
      .compile({ checkpointer: saver });
    for await (const part of app.stream({}, { threadId: 't', mode: 'updates' })) {
      if (part.node === 'one') break;
    }
    stopped = true;
    // The step that streamed `one` completes and is stored; `two` is cancelled (or never starts).
    await until(async () => (await app.getState('t'))?.next.join() === 'two');
    expect(await app.invoke(null, { threadId: 't' })).toEqual({ log: ['one', 'two'] });
    expect(runs.filter((r) => r === 'one')).toEqual(['one']);
    expect(runs.at(-1)).toBe('two');
  });
});

describe('taskWrites: all', () => {
  it('a finished single task whose step checkpoint was never stored does not run again', async () => {
    for (const mode of ['parallel', 'all'] as const) {
      const inner = new MemoryCheckpointer();
      let failStepZero = true;
      const flaky: Checkpointer = {
        put: async (record) => {
          if (failStepZero && record.step === 0) throw new Error('store down');
          return inner.put(record);
        },
        putWrites: (record) => inner.putWrites(record),
        get: (threadId, options) => inner.get(threadId, options),
        list: (threadId, options) => inner.list(threadId, options),
        deleteThread: (threadId) => inner.deleteThread(threadId),
        claimThread: (threadId) => inner.claimThread(threadId),
      };
      const runs: string[] = [];
      const graph = new StateGraph(z.object({ n: z.number() }))
        .addNode('work', (s) => {
          runs.push('work');
          return { n: s.n + 1 };
        })
        .addEdge(START, 'work')
        .addEdge('work', END)
        .compile({ checkpointer: flaky });
      await expect(graph.invoke({ n: 1 }, { threadId: mode, taskWrites: mode })).rejects.toThrow(
        'store down',
      );
      failStepZero = false;
      expect(await graph.invoke(null, { threadId: mode, taskWrites: mode })).toEqual({ n: 2 });
      expect(runs).toEqual(mode === 'all' ? ['work'] : ['work', 'work']);
    }
  });
});
