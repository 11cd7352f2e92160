import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { StateGraph } from '../graph/state-graph.js';
import { END, START } from '../vocabulary/constants.js';
import { PlannedTask } from './task.js';

afterEach(() => {
  vi.restoreAllMocks();
});

function loop(iterations: number) {
  return new StateGraph(z.object({ n: z.number() }))
    .addNode('a', (state) => ({ n: state.n + 1 }))
    .addNode('b', () => ({}))
    .addEdge(START, 'a')
    .addEdge('a', 'b')
    .addConditionalEdges('b', (state) => (state.n < iterations ? 'a' : END), ['a', END])
    .compile();
}

describe('a run nobody watches (hot path, ADR 025)', () => {
  it('never builds a task id', async () => {
    const id = vi.spyOn(PlannedTask.prototype, 'id', 'get');
    expect(await loop(5).invoke({ n: 0 })).toEqual({ n: 5 });
    expect(id).not.toHaveBeenCalled();
  });

  it('builds them when events are watched, and a node reads its own as ctx.taskId', async () => {
    const seen: string[] = [];
    const app = new StateGraph(z.object({ n: z.number() }))
      .addNode('a', (state, ctx) => {
        seen.push(ctx.taskId);
        return { n: state.n + 1 };
      })
      .addEdge(START, 'a')
      .addEdge('a', END)
      .compile();
    const ends: string[] = [];
    for await (const event of app.stream({ n: 0 }, { mode: 'events' }))
      if (event.type === 'node-end') ends.push(event.taskId);
    expect(ends).toEqual(seen);
    expect(seen).toEqual([expect.stringMatching(/^\d+:a:0$/)]);
  });
});
