import { describe, expect, it } from 'vitest';
import type { ListCheckpointsOptions } from '../../checkpoint/checkpointer.js';
import { checkpointRecord, idsOf, newestFirst, type StoreAccessor } from './records.js';

/**
 * Conformance cases for listing: order by `seq`, `limit`, `before`, `baseId`, metadata `filter`.
 *
 * @example
 * ```ts
 * import { beforeEach } from 'vitest';
 * let checkpointer = new MemoryCheckpointer();
 * beforeEach(() => {
 *   checkpointer = new MemoryCheckpointer(); // a fresh store per test
 * });
 * describeListCases(() => checkpointer);
 * ```
 */
export function describeListCases(store: StoreAccessor): void {
  describe('listing', () => {
    const listIds = async (options?: ListCheckpointsOptions) => idsOf(await store().list('t1', options));
    describeOrderCases(store, listIds);
    describeFilterCases(store, listIds);
  });
}

type ListIds = (options?: ListCheckpointsOptions) => Promise<string[]>;

function describeOrderCases(store: StoreAccessor, listIds: ListIds): void {
  it('lists newest first, with limit and before', async () => {
    const all = ['0001', '0002', '0003', '0004', '0005'];
    for (const id of ['0003', '0001', '0005', '0002', '0004']) await store().put(checkpointRecord('t1', id));
    expect(await store().list('t1')).toEqual(newestFirst(all).map((id) => checkpointRecord('t1', id)));
    expect(await listIds({ limit: 2 })).toEqual(['0005', '0004']);
    expect(await listIds({ limit: 10 })).toEqual(newestFirst(all));
    expect(await listIds({ before: '0004' })).toEqual(['0003', '0002', '0001']);
    expect(await listIds({ before: '0004', limit: 2 })).toEqual(['0003', '0002']);
    expect(await listIds({ before: '00035' })).toEqual([]);
    expect(await listIds({ before: '0001' })).toEqual([]);
  });

  it('lists the checkpoints built on one snapshot (baseId)', async () => {
    const bases = { '0001': '0001', '0002': '0001', '0003': '0001', '0004': '0004', '0005': '0004' };
    for (const [id, baseId] of Object.entries(bases))
      await store().put(checkpointRecord('t1', id, { baseId }));
    expect(await listIds({ baseId: '0001' })).toEqual(['0003', '0002', '0001']);
    expect(await listIds({ baseId: '0001', before: '0003' })).toEqual(['0002', '0001']);
    expect(await listIds({ baseId: '0004', limit: 1 })).toEqual(['0005']);
    expect(await listIds({ baseId: '0009' })).toEqual([]);
  });

  it('orders by seq, never by the id text (ids written by a process whose clock is behind)', async () => {
    // The first three ids look 60 s newer than the last three, as when a skewed clock wrote them.
    const ids = [
      '0lz9k2m10-00000',
      '0lz9k2m10-00001',
      '0lz9k2m10-00002',
      '0lz9jmq00-00000',
      '0lz9jmq00-00001',
      '0lz9jmq00-00002',
    ];
    for (const [index, id] of ids.entries())
      await store().put(checkpointRecord('t1', id, { seq: index + 1 }));
    const expected = [...ids].reverse();
    expect(await listIds()).toEqual(expected);
    expect((await store().get('t1'))?.checkpoint.id).toBe(ids.at(-1));
    expect(await listIds({ before: ids[4]! })).toEqual(ids.slice(0, 4).reverse());
    expect(await listIds({ before: ids[1]!, limit: 5 })).toEqual([ids[0]]);
  });
}

function describeFilterCases(store: StoreAccessor, listIds: ListIds): void {
  it('filters by metadata with JSON equality of top-level values', async () => {
    const user = { id: 7, roles: ['admin', 'dev'], profile: { name: 'Ada', tz: null } };
    const metadata = [
      { source: 'input', user },
      { source: 'loop', user, step: 1 },
      { source: 'loop', user: { id: 7 }, step: 2 },
      { source: 'loop', step: null },
    ];
    for (const [index, item] of metadata.entries()) {
      await store().put(checkpointRecord('t1', `000${index + 1}`, { metadata: item }));
    }
    const reordered = { profile: { tz: null, name: 'Ada' }, roles: ['admin', 'dev'], id: 7 };
    expect(await listIds({ filter: { source: 'loop' } })).toEqual(['0004', '0003', '0002']);
    expect(await listIds({ filter: { user: reordered } })).toEqual(['0002', '0001']);
    expect(await listIds({ filter: { user: { id: 7 } } })).toEqual(['0003']);
    expect(await listIds({ filter: { user: { ...user, roles: ['dev', 'admin'] } } })).toEqual([]);
    expect(await listIds({ filter: { source: 'loop', step: 1 } })).toEqual(['0002']);
    expect(await listIds({ filter: { step: null } })).toEqual(['0004']);
    expect(await listIds({ filter: { source: 'loop' }, limit: 1 })).toEqual(['0004']);
    expect(await listIds({ filter: { source: 'loop' }, before: '0004', limit: 1 })).toEqual(['0003']);
    expect(await listIds({ filter: { missing: null } })).toEqual([]);
    expect(await listIds({ filter: {} })).toEqual(['0004', '0003', '0002', '0001']);
  });
}
