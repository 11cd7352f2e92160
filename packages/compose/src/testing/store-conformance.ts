import { afterEach, describe, expect, it } from 'vitest';
import { WeftError } from '../errors/weft-error.js';
import { HashingEmbeddings } from '../store/hashing-embeddings.js';
import type { StoreOptions } from '../store/memory-store.js';
import type { Store } from '../store/store.js';
import { StoreConflictError } from '../store/store-conflict-error.js';
import { StoreValueError } from '../store/store-value-error.js';

/**
 * What a store conformance factory returns: a fresh, empty store and how to dispose of it.
 *
 * @example
 * ```ts
 * const fixture: StoreFixture = { store: new MemoryStore() };
 * ```
 */
export interface StoreFixture {
  readonly store: Store;
  /** Runs after `store.close()` (if defined): drop tables, delete files. */
  readonly cleanup?: () => Promise<void>;
}

/**
 * Registers the shared {@link Store} conformance suite; every store implementation must pass it.
 * `factory` builds a fresh, empty store with the options given (an index, a clock) for each test.
 *
 * Covered: put/get/replace (createdAt kept), delete, namespace prefixes label by label, `list` with
 * `maxDepth`, filters (equality, nested paths, operators), recency order, `limit`/`offset`, vector
 * ranking with per-put index fields and `index: false`, TTL with `sweep`, `ifAbsent` (one winner of a
 * race, an expired key free), copies, unicode, values that
 * are not JSON refused alike (`StoreValueError` naming the path) and JSON given back alike, and typed
 * errors for bad arguments.
 *
 * @example
 * ```ts
 * import { describeStoreConformance } from '@weft/compose/testing';
 *
 * describeStoreConformance('MemoryStore', async (options) => ({ store: new MemoryStore(options) }));
 * ```
 */
export function describeStoreConformance(
  name: string,
  factory: (options: StoreOptions) => Promise<StoreFixture>,
): void {
  describe(`${name} (store conformance)`, () => {
    const open: StoreFixture[] = [];
    let time = 1_700_000_000_000;
    const now = (): number => time;
    const make = async (options: StoreOptions = {}): Promise<Store> => {
      const fixture = await factory({ now, ...options });
      open.push(fixture);
      return fixture.store;
    };
    afterEach(async () => {
      for (const fixture of open.splice(0)) {
        await fixture.store.close?.();
        await fixture.cleanup?.();
      }
    });

    it('puts, gets, replaces (keeping createdAt) and deletes', async () => {
      const store = await make();
      await store.put(['users', 'u1'], 'diet', { text: 'vegetarian', n: 1 });
      time += 1000;
      await store.put(['users', 'u1'], 'diet', { text: 'vegan', n: 2 });
      const item = await store.get(['users', 'u1'], 'diet');
      expect(item?.value).toEqual({ text: 'vegan', n: 2 });
      expect(item?.namespace).toEqual(['users', 'u1']);
      expect(item?.key).toBe('diet');
      expect(item?.updatedAt.getTime()).toBe(time);
      expect(item?.createdAt.getTime()).toBe(time - 1000);
      expect(await store.get(['users', 'u2'], 'diet')).toBeUndefined();
      await store.delete(['users', 'u1'], 'diet');
      await store.delete(['users', 'u1'], 'never-there');
      expect(await store.get(['users', 'u1'], 'diet')).toBeUndefined();
    });

    it('keeps values as JSON (unicode, nesting) and hands out copies', async () => {
      const store = await make();
      const value = { text: 'naïve café 🍵 — 東京', nested: { list: [1, null, true, 'x'] } };
      await store.put(['u'], 'k', value);
      const first = await store.get(['u'], 'k');
      if (!first) throw new Error('the document was not stored');
      expect(first.value).toEqual(value);
      (first.value.nested as { list: unknown[] }).list.push('mutated');
      expect((await store.get(['u'], 'k'))?.value).toEqual(value);
    });

    it('refuses values that are not JSON with a StoreValueError naming the path, and stores nothing', async () => {
      const store = await make();
      await store.put(['j'], 'k', { kept: true });
      const cyclic: Record<string, unknown> = { name: 'loop' };
      cyclic.self = cyclic;
      class Point {
        x = 1;
      }
      const cases: Array<[value: Record<string, unknown>, path: string, says: string]> = [
        [{ meta: { joined: new Date(0) } }, 'meta.joined', 'Date'],
        [{ tags: new Map([['a', 1]]) }, 'tags', 'Map'],
        [{ tags: new Set(['a']) }, 'tags', 'Set'],
        [{ big: 10n }, 'big', 'bigint'],
        [{ nested: { list: [1, cyclic] } }, 'nested.list[1].self', 'cycle'],
        [{ run: () => 1 }, 'run', 'function'],
        [{ s: Symbol('x') }, 's', 'symbol'],
        [{ scores: [1, Number.NaN] }, 'scores[1]', 'NaN'],
        [{ scores: [Number.POSITIVE_INFINITY] }, 'scores[0]', 'Infinity'],
        [{ at: new Point() }, 'at', 'Point'],
        [{ bytes: new Uint8Array([1, 2]) }, 'bytes', 'Uint8Array'],
        [{ list: [1, undefined] }, 'list[1]', 'undefined'],
        [{ 'a.b': { 'when?': new Date(0) } }, '["a.b"]["when?"]', 'Date'],
      ];
      for (const [value, path, says] of cases) {
        const error = await store.put(['j'], 'k', value as never).then(
          () => undefined,
          (thrown: unknown) => thrown,
        );
        expect(error, path).toBeInstanceOf(StoreValueError);
        expect(error, path).toMatchObject({ code: 'INVALID_ARGUMENT', key: 'k', path });
        expect((error as Error).message, path).toContain(says);
      }
      // nothing of the refused puts was written
      expect((await store.get(['j'], 'k'))?.value).toEqual({ kept: true });
      // what every store gives back: the JSON form (undefined properties left out, -0 as 0, a null prototype fine)
      const bare = Object.assign(Object.create(null) as Record<string, unknown>, { n: -0, gone: undefined });
      const leaf = { x: 1 };
      await store.put(['j'], 'json', { bare, shared: [leaf, leaf] } as never);
      const back = (await store.get(['j'], 'json'))?.value as {
        bare: Record<string, unknown>;
        shared: unknown;
      };
      expect(Object.keys(back.bare)).toEqual(['n']);
      expect(Object.is(back.bare.n, 0)).toBe(true);
      expect(back.shared).toEqual([{ x: 1 }, { x: 1 }]); // one object twice is no cycle
    });

    it('puts with ifAbsent only when the key is free: racing writers, exactly one wins', async () => {
      const store = await make();
      await store.put(['v'], '0', { by: 'first' }, { ifAbsent: true });
      const taken = await store.put(['v'], '0', { by: 'second' }, { ifAbsent: true }).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(taken).toBeInstanceOf(StoreConflictError);
      expect(taken).toMatchObject({ code: 'STORE_CONFLICT', key: '0', namespace: ['v'] });
      expect((await store.get(['v'], '0'))?.value).toEqual({ by: 'first' });
      // ten writers racing for one key
      const results = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) => store.put(['v'], 'race', { by: i }, { ifAbsent: true })),
      );
      const won = results.flatMap((r, i) => (r.status === 'fulfilled' ? [i] : []));
      expect(won).toHaveLength(1);
      expect((await store.get(['v'], 'race'))?.value).toEqual({ by: won[0] });
      expect(
        results.filter((r) => r.status === 'rejected').every((r) => r.reason instanceof StoreConflictError),
      ).toBe(true);
      // an expired document is no owner; a plain put still replaces
      await store.put(['v'], 'lease', { by: 'old' }, { ttlMs: 1000 });
      time += 1000;
      await store.put(['v'], 'lease', { by: 'new' }, { ifAbsent: true });
      expect((await store.get(['v'], 'lease'))?.value).toEqual({ by: 'new' });
      expect((await store.get(['v'], 'lease'))?.createdAt.getTime()).toBe(time);
      await store.put(['v'], '0', { by: 'replaced' });
      expect((await store.get(['v'], '0'))?.value).toEqual({ by: 'replaced' });
    });

    it('searches a namespace prefix label by label and lists namespaces', async () => {
      const store = await make();
      await store.put(['mem', 'u1'], 'a', { v: 1 });
      await store.put(['mem', 'u1', 'work'], 'b', { v: 2 });
      await store.put(['mem', 'u10'], 'c', { v: 3 });
      await store.put(['other'], 'd', { v: 4 });
      const keys = (await store.search(['mem', 'u1'])).map((item) => item.key).sort();
      expect(keys).toEqual(['a', 'b']);
      expect((await store.search([])).length).toBe(4);
      expect(await store.list(['mem'])).toEqual([
        ['mem', 'u1'],
        ['mem', 'u1', 'work'],
        ['mem', 'u10'],
      ]);
      expect(await store.list([], { maxDepth: 1 })).toEqual([['mem'], ['other']]);
      expect(await store.list(['mem'], { limit: 1, offset: 1 })).toEqual([['mem', 'u1', 'work']]);
    });

    it('filters by equality, nested paths and operators', async () => {
      const store = await make();
      await store.put(['d'], '1', { kind: 'fact', score: 1, meta: { lang: 'en' }, tags: ['a'] });
      await store.put(['d'], '2', { kind: 'fact', score: 5, meta: { lang: 'fr' }, tags: ['a', 'b'] });
      await store.put(['d'], '3', { kind: 'event', score: 3, meta: { lang: 'en' } });
      const keys = async (filter: Record<string, import('../checkpoint/checkpointer.js').JsonValue>) =>
        (await store.search(['d'], { filter })).map((item) => item.key).sort();
      expect(await keys({ kind: 'fact' })).toEqual(['1', '2']);
      expect(await keys({ 'meta.lang': 'en' })).toEqual(['1', '3']);
      expect(await keys({ tags: ['a', 'b'] })).toEqual(['2']);
      expect(await keys({ score: { $gt: 1, $lte: 5 } })).toEqual(['2', '3']);
      expect(await keys({ kind: { $ne: 'fact' } })).toEqual(['3']);
      expect(await keys({ score: { $in: [1, 3] } })).toEqual(['1', '3']);
      expect(await keys({ missing: 'x' })).toEqual([]);
    });

    it('returns the most recently updated first, paged by limit and offset', async () => {
      const store = await make();
      for (const key of ['k1', 'k2', 'k3', 'k4']) {
        time += 10;
        await store.put(['p'], key, { key });
      }
      expect((await store.search(['p'])).map((item) => item.key)).toEqual(['k4', 'k3', 'k2', 'k1']);
      expect((await store.search(['p'], { limit: 2, offset: 1 })).map((item) => item.key)).toEqual([
        'k3',
        'k2',
      ]);
      expect((await store.search(['p'], { limit: 0 })).length).toBe(0);
    });

    it('ranks by vector similarity on the indexed fields', async () => {
      const index = { embeddings: new HashingEmbeddings({ dimensions: 64 }), fields: ['text'] };
      const store = await make({ index });
      await store.put(['m'], 'tea', { text: 'the user drinks green tea every morning', topic: 'coffee' });
      await store.put(['m'], 'seat', { text: 'prefers a window seat on flights' });
      await store.put(['m'], 'raw', { text: 'green tea green tea' }, { index: false });
      await store.put(
        ['m'],
        'topic',
        { text: 'unrelated', topic: 'window seat flights' },
        { index: ['topic'] },
      );
      const hits = await store.search(['m'], { query: 'window seat on flights' });
      expect(
        hits
          .map((hit) => hit.key)
          .slice(0, 2)
          .sort(),
      ).toEqual(['seat', 'topic']);
      expect(hits[0]?.score).toBeGreaterThan(0.5);
      expect(hits.at(-1)?.key).toBe('raw');
      expect(hits.at(-1)?.score).toBeUndefined();
      const tea = await store.search(['m'], { query: 'green tea', filter: { topic: 'coffee' } });
      expect(tea.map((hit) => hit.key)).toEqual(['tea']);
      expect(tea[0]?.score).toBeGreaterThan(0);
    });

    it('hides expired documents and sweeps them', async () => {
      const store = await make();
      await store.put(['t'], 'short', { v: 1 }, { ttlMs: 1000 });
      await store.put(['t'], 'long', { v: 2 }, { ttlMs: 60_000 });
      await store.put(['t2'], 'forever', { v: 3 });
      expect((await store.get(['t'], 'short'))?.expiresAt?.getTime()).toBe(time + 1000);
      time += 1000;
      expect(await store.get(['t'], 'short')).toBeUndefined();
      expect((await store.search(['t'])).map((item) => item.key)).toEqual(['long']);
      time += 60_000;
      expect(await store.list([])).toEqual([['t2']]);
      expect(await store.sweep()).toBe(2);
      expect(await store.sweep()).toBe(0);
      expect((await store.get(['t2'], 'forever'))?.value).toEqual({ v: 3 });
    });

    it('rejects bad arguments with INVALID_ARGUMENT naming them', async () => {
      const store = await make();
      const code = async (promise: Promise<unknown>, text: string) => {
        const error = await promise.then(
          () => undefined,
          (thrown: unknown) => thrown,
        );
        expect(WeftError.isInstance(error) && error.code).toBe('INVALID_ARGUMENT');
        expect((error as Error).message).toContain(text);
      };
      await code(store.put([], 'k', {}), 'namespace');
      await code(store.put(['a.b'], 'k', {}), '"a.b"');
      await code(store.put(['a', ''], 'k', {}), 'label');
      await code(store.put(['a'], '', {}), 'key');
      await code(store.put(['a'], 'k', [] as never), 'JSON object');
      await code(store.put(['a'], 'k', {}, { ttlMs: -1 }), 'ttlMs');
      await code(store.search(['a'], { limit: -1 }), 'limit');
      await code(store.search(['a'], { filter: { n: { $regex: 'x' } } }), '$regex');
    });
  });
}
