import { describe, expect, it } from 'vitest';
import { Command, END, Graph, MemoryCheckpointer, runnable, START } from '../src/index.js';
import { drain, gate, pausingPipe, wrapper } from './stream-fixtures.js';

/** model → parser → formatter in DAG mode; the model's last chunk waits for `last`. */
function pipeline(last: Promise<void>, produced: string[] = [], checkpointer?: MemoryCheckpointer) {
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
    .addNode('parser', wrapper('p'))
    .addNode('formatter', wrapper('f'))
    .addEdge(START, 'model')
    .addEdge('model', 'parser')
    .addEdge('parser', 'formatter')
    .addEdge('formatter', END)
    .compile({ mode: 'dag', ...(checkpointer ? { checkpointer } : {}) });
}

/** Streams `messages`, opening `last` at the formatter's first chunk; returns what the model had produced then. */
async function firstFormatted(
  app: ReturnType<typeof pipeline>,
  last: { open: () => void },
  produced: string[],
  threadId?: string,
) {
  let at: string[] | undefined;
  const chunks: unknown[] = [];
  for await (const part of app.stream('a', { mode: 'messages', ...(threadId ? { threadId } : {}) })) {
    if (part.node !== 'formatter') continue;
    chunks.push(part.chunk);
    if (at === undefined) {
      at = [...produced];
      // Only now may the model produce its last chunk: without streaming this run never ends.
      last.open();
    }
  }
  return { at, chunks };
}

describe('streams flow between nodes in DAG mode (ADR 022)', () => {
  it('the first formatted chunk leaves the graph before the model produced its last chunk', async () => {
    const last = gate();
    const produced: string[] = [];
    const { at, chunks } = await firstFormatted(pipeline(last.promise, produced), last, produced);
    expect(at).toEqual(['a', 'b']);
    expect(chunks).toEqual(['f(p(a))', 'f(p(b))', 'f(p(c))']);
    expect(await pipeline(Promise.resolve()).invoke('x')).toBe('f(p(x))f(p(b))f(p(c))');
  });

  it('each node’s update is its joined value; whole-value nodes still get a joined input', async () => {
    const inputs: unknown[] = [];
    const app = new Graph<string, number>()
      .addNode('model', async function* () {
        yield 'he';
        yield 'llo';
      })
      .addNode('parser', wrapper('p'))
      .addNode('whole', (text: string) => {
        inputs.push(text);
        return text.length;
      })
      .addEdge(START, 'model')
      .addEdge('model', 'parser')
      .addEdge('parser', 'whole')
      .addEdge('whole', END)
      .compile({ mode: 'dag' });
    const updates: unknown[] = [];
    for await (const update of app.stream('x', { mode: 'updates' })) updates.push(update);
    expect(updates).toEqual([
      { node: 'model', update: 'hello', path: [] },
      { node: 'parser', update: 'p(he)p(llo)', path: [] },
      { node: 'whole', update: 11, path: [] },
    ]);
    expect(inputs).toEqual(['p(he)p(llo)']);
  });

  it('a reader that stops early lets its successors start while the producer goes on', async () => {
    const release = gate();
    const order: string[] = [];
    const app = new Graph<string, { first: string; all: string }>()
      .addNode('model', async function* () {
        yield 'x,';
        await release.promise;
        order.push('model-end');
        yield 'y,';
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
      )
      .addNode(
        'after',
        (text: string) => {
          order.push('after');
          release.open();
          return text;
        },
        { outputKey: 'first' },
      )
      .addNode('all', (text: string) => text, { outputKey: 'all' })
      .addEdge(START, 'model')
      .addEdge('model', 'first')
      .addEdge('first', 'after')
      .addEdge('model', 'all')
      .addEdge(['after', 'all'], END)
      .compile({ mode: 'dag' });
    expect(await app.invoke('go')).toEqual({ first: 'x,', all: 'x,y,' });
    expect(order).toEqual(['after', 'model-end']);
  });

  it('a producer failing mid-stream fails the run with its error, not the reader’s', async () => {
    const app = new Graph<string, string>()
      .addNode('model', async function* () {
        yield 'a';
        throw new Error('model broke');
      })
      .addNode('parser', wrapper('p'))
      .addEdge(START, 'model')
      .addEdge('model', 'parser')
      .addEdge('parser', END)
      .compile({ mode: 'dag' });
    await expect(app.invoke('go')).rejects.toMatchObject({ node: 'model', message: /model broke/ });
  });

  it('durable: streams flow too, and the checkpoint records each node’s joined value', async () => {
    const checkpointer = new MemoryCheckpointer();
    const last = gate();
    const produced: string[] = [];
    const app = pipeline(last.promise, produced, checkpointer);
    const { at } = await firstFormatted(app, last, produced, 't-dag-stream');
    expect(at).toEqual(['a', 'b']);
    const state = await app.getState('t-dag-stream');
    expect(state?.values).toBe('f(p(a))f(p(b))f(p(c))');
    // Each node's update (what its task write records) is its joined value.
    const updates: unknown[] = [];
    const resumed = pipeline(Promise.resolve(), [], checkpointer);
    for await (const update of resumed.stream('z', { threadId: 't-dag-stream-2', mode: 'updates' }))
      updates.push(update);
    expect(updates).toEqual([
      { node: 'model', update: 'zbc', path: [] },
      { node: 'parser', update: 'p(z)p(b)p(c)', path: [] },
      { node: 'formatter', update: 'f(p(z))f(p(b))f(p(c))', path: [] },
    ]);
  });

  it('durable: a producer that pauses mid-stream pauses its reader; both run again on resume', async () => {
    const checkpointer = new MemoryCheckpointer();
    const reads: string[][] = [];
    const app = pausingPipe({ mode: 'dag', checkpointer, reads });
    const paused = await app.run('a', { threadId: 't-dag-pipe-pause' });
    expect(paused.status).toBe('interrupted');
    expect(paused.interrupts.map((i) => i.value)).toEqual(['more?']);
    expect(reads).toEqual([]);
    expect(await app.invoke(new Command({ resume: 'b' }), { threadId: 't-dag-pipe-pause' })).toBe('AB');
    expect(reads).toEqual([['a', 'b']]);
  });

  it('durable: a reader finished before a crash is replayed, its producer runs alone', async () => {
    const checkpointer = new MemoryCheckpointer();
    let crash = true;
    const reads: string[][] = [];
    const firstDone = gate();
    const build = () =>
      new Graph<string, { first: string; all: string }>()
        .addNode('model', async function* () {
          yield 'x,';
          yield 'y,';
        })
        .addNode(
          'first',
          runnable({
            transform: async function* (chunks: AsyncIterable<string>) {
              const read: string[] = [];
              for await (const chunk of chunks) {
                read.push(chunk);
                reads.push(read);
                yield chunk;
                firstDone.open();
                return;
              }
            },
          }),
          { outputKey: 'first' },
        )
        .addNode(
          'all',
          async (text: string) => {
            // Fails only once `first` finished and the loop had its turn to record it.
            await firstDone.promise;
            await drain();
            if (crash) throw new Error('crash');
            return text;
          },
          { outputKey: 'all' },
        )
        .addEdge(START, 'model')
        .addEdge('model', 'first')
        .addEdge('model', 'all')
        .addEdge(['first', 'all'], END)
        .compile({ mode: 'dag', checkpointer });
    await expect(build().invoke('go', { threadId: 't-dag-pipe-crash' })).rejects.toMatchObject({
      node: 'all',
    });
    crash = false;
    expect(await build().invoke(null, { threadId: 't-dag-pipe-crash' })).toEqual({
      first: 'x,',
      all: 'x,y,',
    });
    expect(reads).toEqual([['x,']]);
  });
});
