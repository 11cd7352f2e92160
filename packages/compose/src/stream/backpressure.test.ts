import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StateGraph } from '../graph/state-graph.js';
import { END, START } from '../vocabulary/constants.js';
import type { StreamMode } from './stream-modes.js';

const Counter = z.object({ n: z.number().default(0) });
/** Default high-water mark of a graph stream. */
const highWaterMark = 64;

const turns = async (count: number) => {
  for (let i = 0; i < count; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

/** A 300-step loop that counts how many steps ran. */
function counter() {
  const progress = { steps: 0 };
  const app = new StateGraph(Counter)
    .addNode('inc', (s, ctx) => {
      progress.steps++;
      ctx.emit(s.n);
      return { n: s.n + 1 };
    })
    .addEdge(START, 'inc')
    .addConditionalEdges('inc', (s) => (s.n < 300 ? 'inc' : END))
    .compile({ maxSteps: 400 });
  return { app, progress };
}

describe('backpressure', () => {
  it.each<StreamMode>(['values', 'updates', 'events', 'custom'])(
    '%s: a run waits for a slow consumer instead of buffering without bound',
    async (mode) => {
      const { app, progress } = counter();
      const stream = app.stream({}, { mode });
      await stream.next();
      await turns(30);
      expect(progress.steps).toBeGreaterThan(0);
      expect(progress.steps).toBeLessThanOrEqual(highWaterMark + 2);
      let rest = 0;
      for await (const _ of stream) rest++;
      expect(progress.steps).toBe(300);
      expect(rest).toBeGreaterThan(300 - 1 - highWaterMark);
    },
  );

  it('messages: a streaming node is pulled at the consumer’s pace', async () => {
    let pulled = 0;
    const app = new StateGraph(z.object({ text: z.string().default('') }))
      .addNode('talk', async function* () {
        for (let i = 0; i < 1000; i++) {
          pulled++;
          yield { text: 'x' };
        }
      })
      .addEdge(START, 'talk')
      .addEdge('talk', END)
      .compile();
    const stream = app.stream({}, { mode: ['messages', 'values'] });
    await stream.next();
    await turns(30);
    expect(pulled).toBeLessThanOrEqual(highWaterMark + 2);
    const last = (await (async () => {
      let final: unknown;
      for await (const [mode, payload] of stream) if (mode === 'values') final = payload;
      return final;
    })()) as { text: string };
    expect(last.text).toHaveLength(1000);
  });
});

describe('ending a stream early', () => {
  it('breaking out of the loop aborts the run: the running node sees its signal and nothing new starts', async () => {
    const started: string[] = [];
    let signalled = false;
    const app = new StateGraph(z.object({ log: z.array(z.string()).default([]) }))
      .addNode('first', () => {
        started.push('first');
        return { log: ['first'] };
      })
      .addNode('long', async (_s, ctx) => {
        started.push('long');
        await new Promise<void>((resolve) => {
          ctx.signal.addEventListener(
            'abort',
            () => {
              signalled = true;
              resolve();
            },
            { once: true },
          );
        });
        return { log: ['long'] };
      })
      .addNode('after', () => {
        started.push('after');
        return {};
      })
      .addEdge(START, 'first')
      .addEdge('first', 'long')
      .addEdge('long', 'after')
      .addEdge('after', END)
      .compile();
    for await (const part of app.stream({}, { mode: 'updates' })) {
      expect(part.node).toBe('first');
      await turns(3);
      break;
    }
    await turns(10);
    expect(signalled).toBe(true);
    expect(started).toEqual(['first', 'long']);
  });

  it('a cancelled run closes the stream with the ABORTED error', async () => {
    const controller = new AbortController();
    const app = new StateGraph(Counter)
      .addNode('wait', (_s, ctx) => {
        controller.abort('stop');
        return new Promise<never>((_, reject) => {
          ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true });
        });
      })
      .addEdge(START, 'wait')
      .addEdge('wait', END)
      .compile();
    const seen: unknown[] = [];
    const error = await (async () => {
      for await (const part of app.stream({}, { signal: controller.signal })) seen.push(part);
    })().catch((e: unknown) => e);
    expect(seen).toEqual([{ n: 0 }]);
    expect(error).toMatchObject({ code: 'ABORTED' });
  });
});
