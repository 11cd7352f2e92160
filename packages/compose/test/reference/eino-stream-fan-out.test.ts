// Eino copies a node's output stream to every successor (cloudwego/eino compose/graph_run.go `copyItem`,
// schema/stream.go `copyStreamReaders`; tested by schema/stream_test.go `TestStreamCopy` and
// schema/stream_copy_external_test.go `TestCopyDelay`): each copy reads every chunk as it comes. Weft does
// the same for a streaming node with several successors that read streams, with backpressure bounded by
// the slowest reader (Eino's copies buffer without limit for a slow one). Issue 39, item 9.
import { describe, expect, it } from 'vitest';
import { END, Graph, MemoryCheckpointer, runnable, START } from '../../src/index.js';
import { pipeHighWaterMark } from '../../src/stream/stream-pipe.js';
import { drain, gate } from '../stream-fixtures.js';

/** A reader of its input stream: records each chunk it reads, then echoes it tagged. */
function reader(tag: string, log: string[], options: { slow?: boolean; stopAfter?: number } = {}) {
  return runnable({
    transform: async function* (chunks: AsyncIterable<string>) {
      let read = 0;
      for await (const chunk of chunks) {
        log.push(`${tag}:${chunk}`);
        yield `${tag}(${chunk})`;
        if (++read === options.stopAfter) return;
        if (options.slow) await drain();
      }
    },
  });
}

/** Waits up to a few turns of the event loop (no clock) for `seen()`; what it said last. */
async function turnsUntil(seen: () => boolean, turns = 10): Promise<boolean> {
  for (let turn = 0; turn < turns && !seen(); turn++) await drain();
  return seen();
}

describe.each(['pregel', 'dag'] as const)('a stream fanned out to two readers (%s mode)', (mode) => {
  it('reaches both readers as it comes: each sees the first chunk before the producer yields its second', async () => {
    const log: string[] = [];
    const bothSaw = gate();
    const app = new Graph<string, Record<string, string>>()
      .addNode('model', async function* (prompt: string) {
        log.push('model:yield a');
        yield prompt;
        // Without copies for every reader, `right` gets the joined value only after this node ends.
        await Promise.race([bothSaw.promise, turnsUntil(() => log.includes('right:a'))]);
        log.push('model:yield b');
        yield 'b';
      })
      .addNode('left', reader('left', log), { outputKey: 'left' })
      .addNode('right', reader('right', log), { outputKey: 'right' })
      .addEdge(START, 'model')
      .addEdge('model', 'left')
      .addEdge('model', 'right')
      .addEdge('left', END)
      .addEdge('right', END)
      .compile({ mode });
    const seen = (entry: string) => log.includes(entry);
    let ended = false;
    void (async () => {
      while (!ended && !(seen('left:a') && seen('right:a'))) await drain();
      bothSaw.open();
    })();
    const output = await app.invoke('a').finally(() => {
      ended = true;
    });
    const second = log.indexOf('model:yield b');
    expect(log.indexOf('left:a')).toBeLessThan(second);
    expect(log.indexOf('right:a')).toBeLessThan(second);
    expect(log.indexOf('left:b')).toBeGreaterThan(second);
    expect(log.indexOf('right:b')).toBeGreaterThan(second);
    expect(output).toEqual({ left: 'left(a)left(b)', right: 'right(a)right(b)' });
  });

  it('bounds the producer by the slowest reader: it never runs more than the high-water mark ahead', async () => {
    const log: string[] = [];
    let produced = 0;
    let lead = 0;
    const slowRead = () => log.filter((entry) => entry.startsWith('slow:')).length;
    const app = new Graph<string, Record<string, string>>()
      .addNode('model', async function* () {
        for (let i = 0; i < 40; i++) {
          produced++;
          lead = Math.max(lead, produced - slowRead());
          yield `${i},`;
        }
      })
      .addNode('fast', reader('fast', log), { outputKey: 'fast' })
      .addNode('slow', reader('slow', log, { slow: true }), { outputKey: 'slow' })
      .addEdge(START, 'model')
      .addEdge('model', 'fast')
      .addEdge('model', 'slow')
      .addEdge('fast', END)
      .addEdge('slow', END)
      .compile({ mode });
    const output = await app.invoke('go');
    expect(produced).toBe(40);
    expect(slowRead()).toBe(40);
    expect(lead).toBeLessThanOrEqual(pipeHighWaterMark + 2);
    expect(output.fast?.match(/fast\(/g)).toHaveLength(40);
    expect(output.slow).toBe(output.fast?.replaceAll('fast(', 'slow('));
  });

  it('lets a reader stop early without holding back the producer or the other reader', async () => {
    const log: string[] = [];
    const app = new Graph<string, Record<string, string>>()
      .addNode('model', async function* () {
        for (let i = 0; i < 30; i++) yield `${i};`;
      })
      .addNode('all', reader('all', log), { outputKey: 'all' })
      .addNode('first', reader('first', log, { stopAfter: 1 }), { outputKey: 'first' })
      .addEdge(START, 'model')
      .addEdge('model', 'all')
      .addEdge('model', 'first')
      .addEdge('all', END)
      .addEdge('first', END)
      .compile({ mode });
    const output = await app.invoke('go');
    expect(output.first).toBe('first(0;)');
    expect(log.filter((entry) => entry.startsWith('all:'))).toHaveLength(30);
  });

  it('after a reader failed, resumes without running the producer again: its whole output is replayed', async () => {
    const log: string[] = [];
    const checkpointer = new MemoryCheckpointer();
    let failing = true;
    const app = new Graph<string, Record<string, string>>()
      .addNode('model', async function* (prompt: string) {
        log.push('model ran');
        yield prompt;
        yield '!';
      })
      .addNode('ok', reader('ok', log), { outputKey: 'ok' })
      .addNode(
        'flaky',
        runnable({
          transform: async function* (chunks: AsyncIterable<string>) {
            for await (const chunk of chunks) yield chunk.toUpperCase();
            if (failing) throw new Error('flaky reader');
          },
        }),
        { outputKey: 'flaky' },
      )
      .addEdge(START, 'model')
      .addEdge('model', 'ok')
      .addEdge('model', 'flaky')
      .addEdge('ok', END)
      .addEdge('flaky', END)
      .compile({ mode, checkpointer });
    await expect(app.invoke('hi', { threadId: 't' })).rejects.toThrow('flaky reader');
    failing = false;
    const resumed = await app.invoke(null, { threadId: 't' });
    expect(resumed.flaky).toBe('HI!');
    // `ok` either finished before the failure (its joined value is on record) or reads the replayed
    // output as one chunk; which one depends on when the failure stopped the run.
    expect(['ok(hi)ok(!)', 'ok(hi!)']).toContain(resumed.ok);
    expect(log.filter((entry) => entry === 'model ran')).toHaveLength(1);
  });
});
