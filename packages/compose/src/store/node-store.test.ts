import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StateGraph } from '../graph/state-graph.js';
import { END, START } from '../vocabulary/constants.js';
import { MemoryStore } from './memory-store.js';

const State = z.object({ user: z.string(), seen: z.array(z.string()).default([]) });

function buildGraph() {
  const inner = new StateGraph(State)
    .addNode('remember', async (state, ctx) => {
      await ctx.store?.put(['notes', state.user], `from-${ctx.runId}`, { text: 'nested write' });
      return {};
    })
    .addEdge(START, 'remember')
    .addEdge('remember', END)
    .compile({ name: 'inner' });
  return new StateGraph(State)
    .addNode('read', async (state, ctx) => {
      if (!ctx.store) return { seen: ['no store'] };
      const hits = await ctx.store.search(['notes', state.user]);
      return { seen: hits.map((hit) => String(hit.value.text)) };
    })
    .addNode('nested', inner)
    .addEdge(START, 'read')
    .addEdge('read', 'nested')
    .addEdge('nested', END);
}

describe('ctx.store', () => {
  it('is the compile-time store, shared with nested subgraphs', async () => {
    const store = new MemoryStore();
    await store.put(['notes', 'u1'], 'a', { text: 'likes tea' });
    const app = buildGraph().compile({ store });
    const result = await app.invoke({ user: 'u1' }, { runId: 'r1' });
    expect(result.seen).toEqual(['likes tea']);
    expect((await store.get(['notes', 'u1'], 'from-r1'))?.value).toEqual({ text: 'nested write' });
  });

  it('is replaced by the run option and absent when nobody gave one', async () => {
    const compiled = new MemoryStore();
    const perRun = new MemoryStore();
    await perRun.put(['notes', 'u1'], 'a', { text: 'run store' });
    const app = buildGraph().compile({ store: compiled });
    expect((await app.invoke({ user: 'u1' }, { store: perRun })).seen).toEqual(['run store']);
    expect(await compiled.search([])).toEqual([]);
    const bare = buildGraph().compile();
    expect((await bare.invoke({ user: 'u1' })).seen).toEqual(['no store']);
    const swapped = bare.withOptions({ store: perRun });
    expect((await swapped.invoke({ user: 'u1' })).seen).toContain('run store');
  });
});
