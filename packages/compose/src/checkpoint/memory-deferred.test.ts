// A deferred checkpoint in the memory store: kept as its parts, made into its record on first read, found
// by id once the index is read, and refused like any record when its id or seq is taken.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Topology } from '../pregel/topology.js';
import type { CheckpointRecord } from './checkpointer.js';
import { type DeferredCheckpoint, materialize, payloadLength } from './deferred-checkpoint.js';
import { MemoryCheckpointer, syncPut } from './memory-checkpointer.js';

const versioning = { version: 1, migrations: new Map() };
const topology = {
  name: 'graph',
  versioning,
  nodes: [{ name: 'a' }, { name: 'b "é"' }],
} as unknown as Topology;
const run = { threadId: 't1', ns: '', parents: { '': 'p0' }, topology, quotedLengths: [] };

function deferred(seq: number, more: Partial<DeferredCheckpoint> = {}): DeferredCheckpoint {
  return {
    id: `000${seq}`,
    seq,
    parentId: seq > 1 ? `000${seq - 1}` : null,
    baseId: '0001',
    step: seq,
    source: 'loop',
    createdAt: '2024-01-01T00:00:00.000Z',
    values: undefined,
    writes: '[["a",[["n",1]]]]',
    nodes: 'a',
    next: [1, 0],
    sinceBytes: 17 * seq,
    sinceCount: seq,
    run,
    ...more,
  };
}

function record(id: string, seq: number): CheckpointRecord {
  return { ...materialize(deferred(seq)), id, metadata: {}, payload: 'p', checksum: 'sha256:p' };
}

describe('MemoryCheckpointer with deferred checkpoints', () => {
  it('reads a deferred checkpoint back as the record materialize makes, by position and by id', async () => {
    const store = new MemoryCheckpointer();
    const putNow = syncPut(store)!;
    putNow(deferred(1));
    putNow(deferred(2, { nodes: ['a', 'b "é"'], next: 0 }));
    putNow(deferred(3, { next: [] }));
    const expected = [3, 2, 1].map((seq) =>
      materialize(
        deferred(seq, seq === 2 ? { nodes: ['a', 'b "é"'], next: 0 } : seq === 3 ? { next: [] } : {}),
      ),
    );
    expect(await store.list('t1')).toEqual(expected);
    expect(expected[2]?.payload).toBe(
      '{"v":1,"writes":[["a",[["n",1]]]],"next":[{"id":"0001:b \\"é\\":0","node":"b \\"é\\""},{"id":"0001:a:1","node":"a"}],"routing":{"barriers":[],"inbox":[],"deferred":[]},"sinceBase":{"bytes":17,"count":1}}',
    );
    expect(expected[1]?.metadata).toEqual({
      step: 2,
      source: 'loop',
      writes: ['a', 'b "é"'],
      parents: { '': 'p0' },
      graph: 'graph',
      stateVersion: 1,
    });
    expect((await store.get('t1', { id: '0002' }))?.checkpoint).toEqual(expected[1]);
    expect((await store.list('t1', { before: '0003' })).map((r) => r.id)).toEqual(['0002', '0001']);
    expect((await store.list('t1', { filter: { step: 2 } })).map((r) => r.id)).toEqual(['0002']);
  });

  it('refuses a public put of a deferred checkpoint’s id or seq, and a handed-over id after a public put', async () => {
    const store = new MemoryCheckpointer();
    const putNow = syncPut(store)!;
    putNow(deferred(1));
    putNow(deferred(2));
    await expect(store.put(record('0002', 9))).rejects.toMatchObject({ code: 'CHECKPOINT' });
    await expect(store.put(record('other', 2))).rejects.toMatchObject({ code: 'CHECKPOINT_CONFLICT' });
    expect(() => putNow(deferred(2, { id: 'fresh' }))).toThrow(/already has a checkpoint/);
    await store.put(record('0004', 4));
    // After a record came through the public put, handed-over ids are checked too.
    expect(() => putNow(deferred(5, { id: '0004' }))).toThrow(/already exists/);
    // An older seq goes between the others; ids still resolve to their rows.
    await store.put(record('0003', 3));
    expect((await store.list('t1')).map((r) => r.id)).toEqual(['0004', '0003', '0002', '0001']);
    expect((await store.get('t1', { id: '0002' }))?.checkpoint.seq).toBe(2);
    expect(await store.get('t1', { id: 'missing' })).toBeUndefined();
    expect(await store.list('t1', { before: 'missing' })).toEqual([]);
  });

  it('takes a public record that happens to carry a `run` field for a record, not a deferred one', async () => {
    const store = new MemoryCheckpointer();
    const given = { ...record('0001', 1), run: 'mine' } as CheckpointRecord;
    await store.put(given);
    const { run: _run, ...expected } = given as CheckpointRecord & { run: string };
    expect((await store.get('t1'))?.checkpoint).toEqual(expected);
  });

  it('counts the length of the payload it makes without making it', () => {
    const cases = fc.record({
      names: fc.array(fc.string({ unit: 'binary' }), { minLength: 1, maxLength: 4 }),
      next: fc.array(fc.nat(3), { maxLength: 12 }),
      single: fc.boolean(),
      values: fc.option(fc.string({ unit: 'binary' }), { nil: undefined }),
      writes: fc.string(),
      sinceBytes: fc.nat(),
      sinceCount: fc.nat(),
    });
    fc.assert(
      fc.property(cases, (c) => {
        const nodes = c.names.map((name) => ({ name }));
        const topology = { name: 'graph', versioning, nodes } as unknown as Topology;
        const next = c.single ? 0 : c.next.map((node) => node % nodes.length);
        const shared = { ...run, topology, quotedLengths: [] };
        const made = deferred(1, { ...c, next, run: shared, id: '0mx5zc39n-0002h-0pn5btv1dqb8s3' });
        return payloadLength(made) === materialize(made).payload.length;
      }),
    );
  });
});
