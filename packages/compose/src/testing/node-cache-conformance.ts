import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { NodeCache } from '../cache/node-cache.js';
import { StateGraph } from '../graph/state-graph.js';
import { END, START } from '../vocabulary/constants.js';

/** A cache under test and how to dispose of it. */
export interface NodeCacheFixture {
  readonly cache: NodeCache;
  readonly close?: () => Promise<void>;
}

/**
 * Registers the behaviour every {@link NodeCache} must have: get/set by namespace and key, replacement,
 * expiry by ttl (against the clock `now` the factory must use), clearing some or all namespaces, and a
 * graph whose cached node runs once for one input. Each case gets a fresh fixture; namespaces carry a
 * unique prefix so a shared database is fine.
 *
 * @example
 * ```ts
 * describeNodeCacheConformance('MemoryCache', async (now) => ({ cache: new MemoryCache({ now }) }));
 * ```
 */
export function describeNodeCacheConformance(
  name: string,
  factory: (now: () => number) => Promise<NodeCacheFixture>,
): void {
  describe(`${name} (node cache conformance)`, () => {
    let clock = 1_000_000;
    let fixture: NodeCacheFixture | undefined;
    const prefix = `c${process.pid.toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    const open = async (): Promise<NodeCache> => {
      fixture = await factory(() => clock);
      return fixture.cache;
    };
    afterEach(async () => {
      await fixture?.close?.();
      fixture = undefined;
    });

    it('stores and replaces entries by namespace and key', async () => {
      const cache = await open();
      expect(await cache.get(`${prefix}|a`, 'k')).toBeUndefined();
      await cache.set(`${prefix}|a`, 'k', '{"x":1}', undefined);
      await cache.set(`${prefix}|b`, 'k', '{"x":2}', undefined);
      expect(await cache.get(`${prefix}|a`, 'k')).toBe('{"x":1}');
      await cache.set(`${prefix}|a`, 'k', '{"x":3}', undefined);
      expect(await cache.get(`${prefix}|a`, 'k')).toBe('{"x":3}');
      expect(await cache.get(`${prefix}|b`, 'k')).toBe('{"x":2}');
    });

    it('hides an entry once its ttl has passed', async () => {
      const cache = await open();
      await cache.set(`${prefix}|t`, 'k', '1', 5_000);
      clock += 4_999;
      expect(await cache.get(`${prefix}|t`, 'k')).toBe('1');
      clock += 1;
      expect(await cache.get(`${prefix}|t`, 'k')).toBeUndefined();
    });

    it('clears the namespaces given, or everything', async () => {
      const cache = await open();
      await cache.set(`${prefix}|x`, 'k', '1', undefined);
      await cache.set(`${prefix}|y`, 'k', '2', undefined);
      await cache.clear([`${prefix}|x`]);
      expect(await cache.get(`${prefix}|x`, 'k')).toBeUndefined();
      expect(await cache.get(`${prefix}|y`, 'k')).toBe('2');
      await cache.clear();
      expect(await cache.get(`${prefix}|y`, 'k')).toBeUndefined();
    });

    it('serves a graph: a cached node runs once per input, and after clearCache again', async () => {
      const cache = await open();
      let runs = 0;
      const app = new StateGraph(z.object({ n: z.number() }))
        .addNode(
          'double',
          (s) => {
            runs += 1;
            return { n: s.n * 2 };
          },
          { cachePolicy: { ttl: 60 } },
        )
        .addEdge(START, 'double')
        .addEdge('double', END)
        .compile({ cache, name: `${prefix}-graph` });
      expect(await app.invoke({ n: 2 })).toEqual({ n: 4 });
      expect(await app.invoke({ n: 2 })).toEqual({ n: 4 });
      expect(runs).toBe(1);
      await app.invoke({ n: 3 });
      expect(runs).toBe(2);
      await app.clearCache();
      await app.invoke({ n: 2 });
      expect(runs).toBe(3);
    });
  });
}
