import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runnable } from '../runnable/lambda.js';
import { isRunnable } from '../runnable/runnable.js';
import { appendReducer } from '../state/reducers.js';
import { END, START } from '../vocabulary/constants.js';
import { Graph } from './graph.js';
import { StateGraph } from './state-graph.js';

async function all<T>(source: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of source) items.push(item);
  return items;
}

async function* from<T>(...items: T[]): AsyncIterable<T> {
  yield* items;
}

const Text = z.object({ text: z.string().default(''), log: z.array(z.string()).default([]) });

describe('a compiled graph in four paradigms', () => {
  const app = new StateGraph(Text, { reducers: { log: appendReducer } })
    .addNode('shout', (s) => ({ text: s.text.toUpperCase(), log: 'shout' }))
    .addEdge(START, 'shout')
    .addEdge('shout', END)
    .compile();

  it('is a Runnable', () => {
    expect(isRunnable(app)).toBe(true);
  });

  it('collect: concatenates input chunks, then runs', async () => {
    expect(await app.collect(from({ text: 'he' }, { text: 'llo' }))).toEqual({
      text: 'HELLO',
      log: ['shout'],
    });
  });

  it('transform: concatenates input chunks, then yields the values stream', async () => {
    expect(await all(app.transform(from({ text: 'a' }, { text: 'b' })))).toEqual([
      { text: 'ab', log: [] },
      { text: 'AB', log: ['shout'] },
    ]);
  });

  it('batch: outputs in input order, at most batchConcurrency runs at once', async () => {
    let running = 0;
    let peak = 0;
    const slow = new Graph<number, number>()
      .addNode('work', async (n: number) => {
        running++;
        peak = Math.max(peak, running);
        for (let i = 0; i < (n % 3) + 1; i++) await new Promise<void>((resolve) => setImmediate(resolve));
        running--;
        return n * 10;
      })
      .addEdge(START, 'work')
      .addEdge('work', END)
      .compile();
    const inputs = Array.from({ length: 9 }, (_, i) => i);
    expect(await slow.batch(inputs, { batchConcurrency: 2 })).toEqual(inputs.map((n) => n * 10));
    expect(peak).toBe(2);
    expect(await slow.batch([])).toEqual([]);
  });

  // Lead's file: graph/compiled-graph.ts `batch()` starts Math.min(batchConcurrency, n) workers, so
  // batchConcurrency 0 (or a negative or NaN value) runs nothing and resolves with holes.
  it('batch: rejects a batchConcurrency below 1 instead of returning nothing', async () => {
    const echo = new Graph<number, number>()
      .addNode('echo', (n: number) => n)
      .addEdge(START, 'echo')
      .addEdge('echo', END)
      .compile();
    const outcome = await echo.batch([1, 2], { batchConcurrency: 0 }).catch((e: unknown) => e);
    expect(outcome).toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('batch: rejects when one run fails', async () => {
    const picky = new Graph<number, number>()
      .addNode('check', (n: number) => {
        if (n === 2) throw new Error('two');
        return n;
      })
      .addEdge(START, 'check')
      .addEdge('check', END)
      .compile();
    await expect(picky.batch([1, 2, 3])).rejects.toThrow('two');
  });
});

describe('nodes in any paradigm', () => {
  it('a streaming function node is invoked by concatenating its chunks', async () => {
    const app = new Graph<string, string>()
      .addNode('spell', async function* (word: string) {
        for (const letter of word) yield `${letter}.`;
      })
      .addEdge(START, 'spell')
      .addEdge('spell', END)
      .compile();
    expect(await app.invoke('abc')).toBe('a.b.c.');
  });

  it('a stream-only runnable node is invoked (concatenated) and streamed (chunks)', async () => {
    const words = runnable({
      stream: async function* (text: string) {
        yield* text.split(' ');
      },
      concatOutput: (chunks: readonly string[]) => chunks.join('+'),
    });
    const app = new Graph<string, string>()
      .addNode('words', words)
      .addEdge(START, 'words')
      .addEdge('words', END)
      .compile();
    expect(await app.invoke('a b c')).toBe('a+b+c');
    const parts = await all(app.stream('a b', { mode: ['messages', 'values'] }));
    expect(parts).toEqual([
      ['messages', { node: 'words', chunk: 'a', path: [] }],
      ['messages', { node: 'words', chunk: 'b', path: [] }],
      ['values', 'ab'],
    ]);
  });

  it('an invoke-only runnable node gives one chunk when streamed', async () => {
    const double = runnable({ invoke: (n: number) => n * 2 });
    const app = new Graph<number, number>()
      .addNode('double', double)
      .addEdge(START, 'double')
      .addEdge('double', END)
      .compile();
    expect(await all(app.stream(4, { mode: 'messages' }))).toEqual([{ node: 'double', chunk: 8, path: [] }]);
  });

  it('uses the node’s concat over the graph’s, and the graph’s over the default', async () => {
    const chunks = async function* () {
      yield 2;
      yield 3;
      yield 4;
    };
    const sum = (items: readonly unknown[]) => (items as number[]).reduce((a, b) => a + b, 0);
    const product = (items: readonly unknown[]) => (items as number[]).reduce((a, b) => a * b, 1);
    const build = (nodeConcat?: typeof sum) =>
      new Graph<number, number>()
        .addNode('n', chunks, nodeConcat ? { concat: nodeConcat } : {})
        .addEdge(START, 'n')
        .addEdge('n', END);
    expect(await build().compile().invoke(0)).toBe(4);
    expect(await build().compile({ concat: product }).invoke(0)).toBe(24);
    expect(await build(sum).compile({ concat: product }).invoke(0)).toBe(9);
  });
});
