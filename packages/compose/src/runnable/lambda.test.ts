import { describe, expect, it } from 'vitest';
import { WeftError } from '../errors/weft-error.js';
import { concatChunks } from './concat.js';
import { runnable } from './lambda.js';
import type { CallOptions, Runnable } from './runnable.js';
import { isAsyncIterable, isPromiseLike, isRunnable } from './runnable.js';

async function all<T>(source: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of source) items.push(item);
  return items;
}

async function* from<T>(...items: T[]): AsyncIterable<T> {
  yield* items;
}

/** The four paradigms of a runnable, run on the same input ('a b' as one value or as chunks). */
async function paradigms(r: Runnable<string, string, string>) {
  return {
    invoke: await r.invoke('a b'),
    stream: await all(r.stream('a b')),
    collect: await r.collect(from('a ', 'b')),
    transform: await all(r.transform(from('a ', 'b'))),
  };
}

describe('runnable()', () => {
  it('derives everything from invoke: streams as one chunk, concatenates input chunks', async () => {
    const upper = runnable({ invoke: (text: string) => text.toUpperCase() });
    expect(await paradigms(upper)).toEqual({
      invoke: 'A B',
      stream: ['A B'],
      collect: 'A B',
      transform: ['A B'],
    });
  });

  it('derives everything from stream: invoke concatenates the chunks', async () => {
    // Without an invoke, the output type is unknown: stating it is up to the caller.
    const words = runnable<string, string, string>({
      stream: async function* (text: string) {
        for (const word of text.split(' ')) yield word.toUpperCase();
      },
    });
    expect(await paradigms(words)).toEqual({
      invoke: 'AB',
      stream: ['A', 'B'],
      collect: 'AB',
      transform: ['A', 'B'],
    });
  });

  it('derives everything from collect', async () => {
    const joined = runnable({
      collect: async (input: AsyncIterable<string>) => (await all(input)).join('|'),
    });
    expect(await paradigms(joined)).toEqual({
      invoke: 'a b',
      stream: ['a b'],
      collect: 'a |b',
      transform: ['a |b'],
    });
  });

  it('derives everything from transform', async () => {
    const echo = runnable<string, string, string>({
      transform: async function* (input: AsyncIterable<string>) {
        for await (const chunk of input) yield `<${chunk}>`;
      },
    });
    expect(await paradigms(echo)).toEqual({
      invoke: '<a b>',
      stream: ['<a b>'],
      collect: '<a ><b>',
      transform: ['<a >', '<b>'],
    });
  });

  it('uses the given concat functions for outputs and inputs', async () => {
    const counted = runnable({
      stream: async function* (n: number) {
        for (let i = 1; i <= n; i++) yield i;
      },
      concatOutput: (chunks: readonly number[]) => chunks.reduce((a, b) => a + b, 0),
      concatInput: (chunks) => (chunks as number[]).reduce((a, b) => a * b, 1),
    });
    expect(await counted.invoke(4)).toBe(10);
    expect(await counted.collect(from(2, 3))).toBe(21);
  });

  it('passes the call options (signal, config) through', async () => {
    const seen: CallOptions[] = [];
    const probe = runnable({
      invoke: (_: string, options?: CallOptions) => {
        if (options) seen.push(options);
        return 'ok';
      },
    });
    const signal = new AbortController().signal;
    await probe.invoke('x', { signal, config: { k: 1 } });
    await all(probe.stream('x', { signal }));
    expect(seen[0]).toEqual({ signal, config: { k: 1 } });
    expect(seen[1]?.signal).toBe(signal);
  });

  it('refuses to build a runnable with no paradigm, with a WeftError', () => {
    let error: unknown;
    try {
      runnable({});
    } catch (thrown) {
      error = thrown;
    }
    expect(WeftError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});

describe('runnable guards', () => {
  it('recognise runnables, async iterables and promises', () => {
    expect(isRunnable(runnable({ invoke: (x: number) => x }))).toBe(true);
    expect(isRunnable({ invoke() {}, stream() {} })).toBe(false);
    expect(isRunnable(null)).toBe(false);
    expect(isAsyncIterable(from(1))).toBe(true);
    expect(isAsyncIterable([1])).toBe(false);
    // biome-ignore lint/suspicious/noThenProperty: a hand-made thenable is what this checks
    expect(isPromiseLike({ then() {} })).toBe(true);
    expect(isPromiseLike(Promise.resolve())).toBe(true);
    expect(isPromiseLike({})).toBe(false);
  });
});

describe('concatChunks', () => {
  it('joins strings, flattens arrays one level and merges objects key by key', () => {
    expect(concatChunks([])).toBeUndefined();
    expect(concatChunks(['only'])).toBe('only');
    expect(concatChunks(['Hel', 'lo'])).toBe('Hello');
    expect(concatChunks([[1], [2, [3]]])).toEqual([1, 2, [3]]);
    expect(
      concatChunks([
        { text: 'a', n: 1, tags: ['x'] },
        { text: 'b', n: 2, tags: ['y'], extra: undefined },
        { meta: { id: '1' } },
      ]),
    ).toEqual({ text: 'ab', n: 2, tags: ['x', 'y'], meta: { id: '1' } });
  });

  it('keeps the last chunk when the chunks do not combine', () => {
    expect(concatChunks([1, 2, 3])).toBe(3);
    expect(concatChunks(['a', 1])).toBe(1);
    const date = new Date(0);
    expect(concatChunks([{ a: 1 }, date])).toBe(date);
  });
});
