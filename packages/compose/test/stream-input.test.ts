import { describe, expect, it } from 'vitest';
import { END, Graph, type RunEvent, runnable, START } from '../src/index.js';
import { drain, gate, wrapper } from './stream-fixtures.js';

/** The caller's input stream: 'a', 'b', then 'c' once `last` opened; `produced` records each chunk. */
async function* input(last: Promise<void>, produced: string[]): AsyncIterable<string> {
  for (const chunk of ['a', 'b']) {
    produced.push(chunk);
    yield chunk;
  }
  await last;
  produced.push('c');
  yield 'c';
}

/** Opens `last` at the first chunk `node` streams, recording what the input had produced by then. */
function watch(node: string, last: { open: () => void }, produced: string[]) {
  const at: { produced?: string[] } = {};
  const observe = (event: RunEvent) => {
    if (event.type !== 'chunk' || event.node !== node || at.produced) return;
    at.produced = [...produced];
    last.open();
  };
  return { at, observe };
}

describe.each(['pregel', 'dag'] as const)(
  "a graph's stream input flows into its first nodes (%s mode)",
  (mode) => {
    const pipeline = () =>
      new Graph<string, string>()
        .addNode('parser', wrapper('p'))
        .addNode('formatter', wrapper('f'))
        .addEdge(START, 'parser')
        .addEdge('parser', 'formatter')
        .addEdge('formatter', END)
        .compile({ mode });

    it('collect: the first output chunk leaves the graph before the last input chunk is produced', async () => {
      const last = gate();
      const produced: string[] = [];
      const { at, observe } = watch('formatter', last, produced);
      // Without streaming, the input is joined first and `last` never opens: the run would hang.
      const output = await pipeline().collect(input(last.promise, produced), { observe });
      expect(at.produced?.includes('c')).toBe(false);
      expect(output).toBe('f(p(a))f(p(b))f(p(c))');
    });

    it('transform: yields the same output as with a joined input', async () => {
      const last = gate();
      const produced: string[] = [];
      const { observe } = watch('parser', last, produced);
      const values: unknown[] = [];
      for await (const value of pipeline().transform(input(last.promise, produced), { observe }))
        values.push(value);
      expect(values).toEqual(['f(p(a))f(p(b))f(p(c))']);
    });

    it('feeds several first nodes the same chunks, each at its pace', async () => {
      const left: string[] = [];
      const right: string[] = [];
      const app = new Graph<string, string>()
        .addNode('left', wrapper('l', left))
        .addNode('right', wrapper('r', right))
        .addNode('join', (inputs: { left: string; right: string }) => `${inputs.left}|${inputs.right}`, {
          merge: (values, sources) => Object.fromEntries(sources.map((s, i) => [s, values[i]])),
        })
        .addEdge(START, 'left')
        .addEdge(START, 'right')
        .addEdge(['left', 'right'], 'join')
        .addEdge('join', END)
        .compile({ mode });
      const last = gate();
      const produced: string[] = [];
      const { at, observe } = watch('right', last, produced);
      expect(await app.collect(input(last.promise, produced), { observe })).toBe('l(a)l(b)l(c)|r(a)r(b)r(c)');
      expect(at.produced?.includes('c')).toBe(false);
      expect(left).toEqual(['a', 'b', 'c']);
      expect(right).toEqual(['a', 'b', 'c']);
    });

    it('backpressure: the caller’s stream runs only a few chunks ahead of a first node that stopped reading', async () => {
      const resume = gate();
      let produced = 0;
      let read = 0;
      async function* many() {
        for (let i = 0; i < 1000; i++) {
          produced++;
          yield 1;
        }
      }
      const app = new Graph<number, number>()
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
        .addEdge(START, 'slow')
        .addEdge('slow', END)
        .compile({ mode });
      const done = app.collect(many());
      for (let i = 0; i < 4; i++) await drain();
      expect(read).toBe(1);
      expect(produced).toBeGreaterThan(1);
      expect(produced).toBeLessThanOrEqual(12);
      resume.open();
      expect(await done).toBe(1000);
      expect(produced).toBe(1000);
    });

    it('joins the input first when a first node needs a whole value', async () => {
      const seen: unknown[] = [];
      const app = new Graph<string, string>()
        .addNode('whole', (text: string) => {
          seen.push(text);
          return text.toUpperCase();
        })
        .addEdge(START, 'whole')
        .addEdge('whole', END)
        .compile({ mode });
      expect(await app.collect(input(Promise.resolve(), []))).toBe('ABC');
      expect(seen).toEqual(['abc']);
    });

    it('closes the caller’s stream when the first node stops reading, and when the run fails', async () => {
      let closed = 0;
      async function* endless() {
        try {
          for (let i = 0; ; i++) yield `${i}`;
        } finally {
          closed++;
        }
      }
      const firstTwo = runnable({
        transform: async function* (chunks: AsyncIterable<string>) {
          let n = 0;
          for await (const chunk of chunks) {
            yield chunk;
            if (++n === 2) return;
          }
        },
      });
      const short = new Graph<string, string>()
        .addNode('take', firstTwo)
        .addEdge(START, 'take')
        .addEdge('take', END)
        .compile({ mode });
      expect(await short.collect(endless())).toBe('01');
      const failing = new Graph<string, string>()
        .addNode(
          'fail',
          runnable({
            transform: async function* (chunks: AsyncIterable<string>) {
              for await (const chunk of chunks) if (chunk === '3') throw new Error('no threes');
              yield 'never';
            },
          }),
        )
        .addEdge(START, 'fail')
        .addEdge('fail', END)
        .compile({ mode });
      await expect(failing.collect(endless())).rejects.toMatchObject({
        name: 'NodeError',
        message: /no threes/,
      });
      // The pump closes the source when its last reader ended; give that return() its turn.
      await drain();
      expect(closed).toBe(2);
    });

    it('reports a failing input stream as the reading node failing', async () => {
      async function* broken() {
        yield 'a';
        throw new Error('input broke');
      }
      await expect(pipeline().collect(broken())).rejects.toMatchObject({
        name: 'NodeError',
        message: /input broke/,
      });
    });
  },
);
