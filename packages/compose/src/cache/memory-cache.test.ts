import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RunEvent } from '../events/run-event.js';
import { StateGraph } from '../graph/state-graph.js';
import { appendReducer } from '../state/reducers.js';
import { describeNodeCacheConformance } from '../testing/node-cache-conformance.js';
import { END, START } from '../vocabulary/constants.js';
import { Send } from '../vocabulary/send.js';
import { MemoryCache } from './memory-cache.js';

describeNodeCacheConformance('MemoryCache', async (now) => ({ cache: new MemoryCache({ now }) }));

const State = z.object({
  url: z.string(),
  body: z.string().default(''),
  log: z.array(z.string()).default([]),
});

function fetcher(cache: MemoryCache, calls: string[], policy = {}) {
  return new StateGraph(State, { reducers: { log: appendReducer } })
    .addNode(
      'fetch',
      async (s) => {
        calls.push(s.url);
        return { body: `page ${s.url}`, log: `fetched ${s.url}` };
      },
      { cachePolicy: policy },
    )
    .addEdge(START, 'fetch')
    .addEdge('fetch', END)
    .compile({ cache, name: 'fetcher' });
}

describe('node cache', () => {
  it('returns the cached write for an input seen within ttl, and runs again after it', async () => {
    let clock = 0;
    const cache = new MemoryCache({ now: () => clock });
    const calls: string[] = [];
    const app = fetcher(cache, calls, { ttl: 10 });
    const first = await app.invoke({ url: 'a' });
    expect(await app.invoke({ url: 'a' })).toEqual(first);
    expect(calls).toEqual(['a']);
    clock += 10_000;
    await app.invoke({ url: 'a' });
    expect(calls).toEqual(['a', 'a']);
  });

  it('uses the policy’s key: inputs with one key share an entry', async () => {
    const calls: string[] = [];
    const app = fetcher(new MemoryCache(), calls, { key: (s: { url: string }) => s.url.toLowerCase() });
    await app.invoke({ url: 'A' });
    expect(await app.invoke({ url: 'a' })).toMatchObject({ body: 'page A' });
    expect(calls).toEqual(['A']);
  });

  it('shows a hit in events as a node-end with cached: true', async () => {
    const app = fetcher(new MemoryCache(), []);
    await app.invoke({ url: 'a' });
    const events: RunEvent[] = [];
    await app.invoke({ url: 'a' }, { callbacks: { onEvent: (event: RunEvent) => void events.push(event) } });
    const ends = events.filter((e) => e.type === 'node-end');
    expect(ends).toMatchObject([{ node: 'fetch', cached: true, output: { body: 'page a' } }]);
  });

  it('caches Send tasks by their own input', async () => {
    const calls: number[] = [];
    const app = new StateGraph(z.object({ total: z.number().default(0) }), {
      reducers: { total: (a: number, b: number) => a + b },
    })
      .addNode(
        'square',
        (input: { n: number }) => {
          calls.push(input.n);
          return { total: input.n * input.n };
        },
        { cachePolicy: {} },
      )
      .addConditionalEdges(START, () => [1, 2, 2].map((n) => new Send('square', { n })))
      .addEdge('square', END)
      .compile({ cache: new MemoryCache() });
    expect(await app.invoke({})).toEqual({ total: 9 });
    expect(await app.invoke({})).toEqual({ total: 9 });
    expect(calls.sort()).toEqual([1, 2, 2]);
  });

  it('clearCache needs a cache', async () => {
    const app = new StateGraph(State)
      .addNode('a', () => ({}))
      .addEdge(START, 'a')
      .addEdge('a', END)
      .compile();
    await expect(app.clearCache()).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
