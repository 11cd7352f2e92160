import { describe, expect, it } from 'vitest';
import { Command, END, Graph, MemoryCheckpointer, NodeError, runnable, START } from '../src/index.js';
import { drain, gate, pausingPipe } from './stream-fixtures.js';

/** A parser that upper-cases each chunk as it comes; `seen` records what it read. */
function parser(seen: string[] = []) {
  return runnable({
    transform: async function* (chunks: AsyncIterable<string>) {
      for await (const chunk of chunks) {
        seen.push(chunk);
        yield chunk.toUpperCase();
      }
    },
  });
}

/** A formatter that wraps each chunk as it comes. */
const formatter = runnable({
  transform: async function* (chunks: AsyncIterable<string>) {
    for await (const chunk of chunks) yield `[${chunk}]`;
  },
});

/** model → parser → formatter, where the model's last chunk waits for `last`. */
function pipeline(last: Promise<void>, produced: string[] = []) {
  return new Graph<string, string>()
    .addNode('model', async function* (prompt: string) {
      for (const token of [prompt, 'b']) {
        produced.push(token);
        yield token;
      }
      await last;
      produced.push('c');
      yield 'c';
    })
    .addNode('parser', parser())
    .addNode('formatter', formatter)
    .addEdge(START, 'model')
    .addEdge('model', 'parser')
    .addEdge('parser', 'formatter')
    .addEdge('formatter', END);
}

describe('streams flow between nodes (ADR 022)', () => {
  it('the first formatted chunk leaves the graph before the model produced its last chunk', async () => {
    const last = gate();
    const produced: string[] = [];
    const app = pipeline(last.promise, produced).compile();
    const seen: Array<[string, unknown]> = [];
    let producedAtFirstFormatted: string[] | undefined;
    for await (const part of app.stream('a', { mode: ['messages', 'values'] })) {
      if (part[0] === 'values') {
        seen.push(['values', part[1]]);
        continue;
      }
      const payload = part[1];
      seen.push([payload.node, payload.chunk]);
      if (payload.node === 'formatter' && producedAtFirstFormatted === undefined) {
        producedAtFirstFormatted = [...produced];
        // Only now may the model produce its last chunk: without streaming this run never ends.
        last.open();
      }
    }
    expect(producedAtFirstFormatted).toEqual(['a', 'b']);
    expect(seen.filter(([node]) => node === 'formatter').map(([, chunk]) => chunk)).toEqual([
      '[A]',
      '[B]',
      '[C]',
    ]);
    expect(seen.at(-1)).toEqual(['values', '[A][B][C]']);
  });

  it('invoke joins each node once for its output: the same result as without streams', async () => {
    const app = pipeline(Promise.resolve()).compile();
    expect(await app.invoke('a')).toBe('[A][B][C]');
  });

  it('the pipeline runs in one superstep; each node’s write is its joined value', async () => {
    const app = pipeline(Promise.resolve()).compile();
    const updates: unknown[] = [];
    for await (const update of app.stream('x', { mode: 'updates' })) updates.push(update);
    expect(updates).toEqual([
      { node: 'model', update: 'xbc', path: [] },
      { node: 'parser', update: 'XBC', path: [] },
      { node: 'formatter', update: '[X][B][C]', path: [] },
    ]);
    const result = await app.run('x');
    expect(result.steps).toBe(1);
  });

  it('nodes that need a whole value get it joined, after the stream ended', async () => {
    const inputs: unknown[] = [];
    const app = new Graph<string, number>()
      .addNode('model', async function* () {
        yield 'he';
        yield 'llo';
      })
      .addNode('whole', (text: string) => {
        inputs.push(text);
        return text.length;
      })
      .addEdge(START, 'model')
      .addEdge('model', 'whole')
      .addEdge('whole', END)
      .compile();
    expect(await app.run('x')).toMatchObject({ output: 5, steps: 2 });
    expect(inputs).toEqual(['hello']);
  });

  it('backpressure: a producer runs only a few chunks ahead of a reader that stopped reading', async () => {
    const resume = gate();
    let produced = 0;
    let read = 0;
    const app = new Graph<number, number>()
      .addNode('model', async function* (count: number) {
        for (let i = 0; i < count; i++) {
          produced++;
          yield 1;
        }
      })
      .addNode(
        'slow',
        runnable({
          transform: async function* (chunks: AsyncIterable<number>) {
            for await (const chunk of chunks) {
              read++;
              if (read === 1) await resume.promise;
              yield chunk;
            }
          },
        }),
        { concat: (chunks) => chunks.length },
      )
      .addEdge(START, 'model')
      .addEdge('model', 'slow')
      .addEdge('slow', END)
      .compile();
    const done = app.invoke(1000);
    await drain();
    await drain();
    expect(read).toBe(1);
    expect(produced).toBeGreaterThan(1);
    expect(produced).toBeLessThanOrEqual(12);
    resume.open();
    expect(await done).toBe(1000);
    expect(produced).toBe(1000);
  });

  it('a reader that stops early does not block its producer, whose output stays whole', async () => {
    const app = new Graph<string, { first: string; all: string }>()
      .addNode('model', async function* () {
        for (let i = 0; i < 100; i++) yield `${i},`;
      })
      .addNode(
        'first',
        runnable({
          transform: async function* (chunks: AsyncIterable<string>) {
            for await (const chunk of chunks) {
              yield chunk;
              return;
            }
          },
        }),
        { outputKey: 'first' },
      )
      .addEdge(START, 'model')
      .addEdge('model', 'first')
      .addNode('all', (text: string) => text.length, { outputKey: 'all' })
      .addEdge('model', 'all')
      .addEdge(['first', 'all'], END)
      .compile();
    expect(await app.invoke('go')).toEqual({ first: '0,', all: 290 });
  });

  it('aborting the run mid-stream stops the producer and closes its iterator', async () => {
    const controller = new AbortController();
    let closed = false;
    let produced = 0;
    const app = new Graph<string, string>()
      .addNode('model', async function* () {
        try {
          for (;;) {
            produced++;
            yield 'x';
          }
        } finally {
          closed = true;
        }
      })
      .addNode('parser', parser())
      .addEdge(START, 'model')
      .addEdge('model', 'parser')
      .addEdge('parser', END)
      .compile();
    const run = app.stream('go', { mode: 'messages', signal: controller.signal });
    let parsed = 0;
    const outcome = (async () => {
      for await (const part of run) {
        if ((part as { node: string }).node === 'parser' && ++parsed === 3) controller.abort();
      }
    })().catch((error: unknown) => error);
    expect(await outcome).toMatchObject({ code: 'ABORTED' });
    expect(closed).toBe(true);
    const atEnd = produced;
    await drain();
    expect(produced).toBe(atEnd);
  });

  it('breaking out of the stream aborts the pipeline and closes every iterator', async () => {
    const closed: string[] = [];
    const tracked = (name: string, inner: ReturnType<typeof parser>) =>
      runnable({
        transform: async function* (chunks: AsyncIterable<string>) {
          try {
            yield* inner.transform(chunks);
          } finally {
            closed.push(name);
          }
        },
      });
    const app = new Graph<string, string>()
      .addNode('model', async function* () {
        try {
          for (;;) yield 'x';
        } finally {
          closed.push('model');
        }
      })
      .addNode('parser', tracked('parser', parser()))
      .addNode('formatter', tracked('formatter', parser()))
      .addEdge(START, 'model')
      .addEdge('model', 'parser')
      .addEdge('parser', 'formatter')
      .addEdge('formatter', END)
      .compile();
    for await (const part of app.stream('go', { mode: 'messages' })) {
      if ((part as { node: string }).node === 'formatter') break;
    }
    expect(closed.sort()).toEqual(['formatter', 'model', 'parser']);
  });

  it('a reader failing mid-stream fails the run with its error and stops the producer', async () => {
    let closed = false;
    const app = new Graph<string, string>()
      .addNode('model', async function* () {
        try {
          for (;;) yield 'x';
        } finally {
          closed = true;
        }
      })
      .addNode(
        'parser',
        runnable({
          transform: async function* (chunks: AsyncIterable<string>) {
            let n = 0;
            for await (const chunk of chunks) {
              if (++n === 3) throw new Error('bad chunk');
              yield chunk;
            }
          },
        }),
      )
      .addEdge(START, 'model')
      .addEdge('model', 'parser')
      .addEdge('parser', END)
      .compile();
    const error = await app.invoke('go').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NodeError);
    expect(error).toMatchObject({ node: 'parser', cause: { message: 'bad chunk' } });
    expect(closed).toBe(true);
  });

  it('a producer failing mid-stream fails the run with its error, not the reader’s', async () => {
    const app = new Graph<string, string>()
      .addNode('model', async function* () {
        yield 'a';
        yield 'b';
        throw new Error('model lost');
      })
      .addNode('parser', parser())
      .addEdge(START, 'model')
      .addEdge('model', 'parser')
      .addEdge('parser', END)
      .compile();
    const error = await app.invoke('go').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NodeError);
    expect(error).toMatchObject({ node: 'model', cause: { message: 'model lost' } });
  });

  it('a plain value or a Command feeds the reader as one chunk', async () => {
    const seen: string[] = [];
    const app = new Graph<string, string>()
      .addNode('model', (text: string) => new Command({ update: `${text}!`, goto: [] }))
      .addNode('parser', parser(seen))
      .addEdge(START, 'model')
      .addEdge('model', 'parser')
      .addEdge('parser', END)
      .compile();
    expect(await app.invoke('hi')).toBe('HI!');
    expect(seen).toEqual(['hi!']);
  });
});

describe('streams flow with checkpoints (ADR 022)', () => {
  it('after a failed step, the finished producer is not run again: its recorded value is streamed', async () => {
    const checkpointer = new MemoryCheckpointer();
    const reads: string[][] = [];
    let modelRuns = 0;
    const app = new Graph<string, string>()
      .addNode('model', async function* () {
        modelRuns++;
        yield 'a';
        yield 'b';
      })
      .addNode(
        'review',
        runnable({
          transform: async function* (chunks: AsyncIterable<string>, options) {
            const read: string[] = [];
            for await (const chunk of chunks) read.push(chunk);
            reads.push(read);
            if (options?.config?.approved !== true) throw new Error('needs approval');
            yield read.join('').toUpperCase();
          },
        }),
      )
      .addEdge(START, 'model')
      .addEdge('model', 'review')
      .addEdge('review', END)
      .compile({ checkpointer });
    const failed = await app.invoke('go', { threadId: 't-pipe-fail' }).catch((e: unknown) => e);
    expect(failed).toMatchObject({ node: 'review' });
    expect((await app.getState('t-pipe-fail'))?.next).toEqual(['review']);
    expect(await app.invoke(null, { threadId: 't-pipe-fail', config: { approved: true } })).toBe('AB');
    expect(modelRuns).toBe(1);
    expect(reads).toEqual([['a', 'b'], ['ab']]);
    const [latest] = await app.getStateHistory('t-pipe-fail', { limit: 1 });
    expect(latest?.values).toBe('AB');
  });

  it('a producer that pauses mid-stream pauses its reader too; both run again on resume', async () => {
    const checkpointer = new MemoryCheckpointer();
    const reads: string[][] = [];
    const app = pausingPipe({ mode: 'pregel', checkpointer, reads });
    const paused = await app.run('a', { threadId: 't-pipe-pause' });
    expect(paused.status).toBe('interrupted');
    expect(paused.interrupts.map((i) => i.value)).toEqual(['more?']);
    expect(reads).toEqual([]);
    const parts: unknown[] = [];
    for await (const part of app.stream(new Command({ resume: 'b' }), {
      threadId: 't-pipe-pause',
      mode: 'updates',
    }))
      parts.push(part);
    expect(parts).toEqual([
      { node: 'model', update: 'ab', path: [] },
      { node: 'parser', update: 'AB', path: [] },
    ]);
    expect(reads).toEqual([['a', 'b']]);
  });
});
