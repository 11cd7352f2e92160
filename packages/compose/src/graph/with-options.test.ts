import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryCheckpointer } from '../checkpoint/memory-checkpointer.js';
import type { RunEvent } from '../events/run-event.js';
import { END, START } from '../vocabulary/constants.js';
import { StateGraph } from './state-graph.js';

const build = () =>
  new StateGraph(z.object({ n: z.number() }))
    .addNode('a', (s) => ({ n: s.n + 1 }))
    .addNode('b', (s) => ({ n: s.n * 10 }))
    .addEdge(START, 'a')
    .addEdge('a', 'b')
    .addEdge('b', END)
    .compile();

describe('withOptions', () => {
  it('adds a checkpointer and breakpoints without recompiling, and leaves the original untouched', async () => {
    const plain = build();
    const saver = new MemoryCheckpointer();
    const durable = plain.withOptions({ checkpointer: saver, interruptBefore: ['b'] });
    const events: RunEvent[] = [];
    const paused = await durable.run(
      { n: 1 },
      { threadId: 't', callbacks: { onEvent: (e) => events.push(e) } },
    );
    expect(paused.status).toBe('interrupted');
    expect(events.filter((e) => e.type === 'interrupt').map((e) => (e as { node: string }).node)).toEqual([
      'b',
    ]);
    expect((await durable.run(null, { threadId: 't' })).output).toEqual({ n: 20 });
    expect(await plain.invoke({ n: 1 })).toEqual({ n: 20 });
    await expect(plain.getState('t')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('rejects unknown breakpoint nodes and bad step limits', () => {
    const plain = build();
    expect(() => plain.withOptions({ interruptAfter: ['nope' as 'a'] })).toThrow(
      /"nope", which is not a node/,
    );
    expect(() => plain.withOptions({ maxSteps: 0 })).toThrow(/maxSteps/);
  });

  it('updateState validates against the state, not a narrower input schema', async () => {
    const graph = new StateGraph(z.object({ n: z.number(), note: z.string().optional() }), {
      input: z.object({ n: z.number() }).strict(),
    })
      .addNode('a', (s) => ({ n: s.n + 1 }))
      .addEdge(START, 'a')
      .addEdge('a', END)
      .compile({ checkpointer: new MemoryCheckpointer() });
    await graph.invoke({ n: 1 }, { threadId: 'u' });
    await graph.updateState('u', { note: 'edited' });
    expect((await graph.getState('u'))?.values).toEqual({ n: 2, note: 'edited' });
    await expect(graph.updateState('u', { note: 3 } as never)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });
});
