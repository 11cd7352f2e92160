import { describe, expect, it } from 'vitest';
import { HashingEmbeddings } from './hashing-embeddings.js';
import { namespaceRange } from './store-namespace.js';
import { storeItemFromRow, storeRowForPut, vectorsFromBytes } from './store-rows.js';

describe('storeRowForPut', () => {
  it('checks, embeds and computes the row once the document is embedded', async () => {
    const embeddings = new HashingEmbeddings({ dimensions: 8 });
    let clock = 1000;
    const row = await storeRowForPut({
      namespace: ['memories', 'u1'],
      key: 'm1',
      value: { text: 'tea', tags: ['x', 'y'] },
      options: { ttlMs: 50, index: ['tags[*]'] },
      index: { embeddings },
      now: () => clock++,
    });
    expect(row).toMatchObject({ ns: 'memories.u1', key: 'm1', now: 1000, expiresAt: 1050, dims: 8 });
    expect(JSON.parse(row.value)).toEqual({ text: 'tea', tags: ['x', 'y'] });
    expect(row.vectors).toHaveLength(16);
    expect(vectorsFromBytes(new Uint8Array(row.vectors?.buffer ?? new ArrayBuffer(0)), row.dims)).toEqual(
      [...(await embeddings.embed(['x', 'y']))].map((vector) => new Float32Array(vector)),
    );
  });

  it('writes no vectors without an index, and no expiry without a TTL', async () => {
    const row = await storeRowForPut({
      namespace: ['a'],
      key: 'k',
      value: { v: 1 },
      options: undefined,
      index: undefined,
      now: () => 7,
    });
    expect(row).toMatchObject({ expiresAt: null, dims: null, vectors: null });
  });

  it('refuses bad arguments before embedding anything', async () => {
    const embeddings = { embed: async () => expect.fail('embedded a refused document') };
    const put = (namespace: string[], key: string) =>
      storeRowForPut({
        namespace,
        key,
        value: { v: 1 },
        options: undefined,
        index: { embeddings },
        now: Date.now,
      });
    await expect(put(['a.b'], 'k')).rejects.toThrow(/namespace label "a.b"/);
    await expect(put(['a'], '')).rejects.toThrow(/key must be a non-empty string/);
  });
});

describe('rows read back', () => {
  it('an item with dates, and an expiry only when there is one', () => {
    const row = { ns: 'a.b', key: 'k', value: '{"v":1}', created_at: 1, updated_at: 2, expires_at: null };
    expect(storeItemFromRow(row)).toEqual({
      namespace: ['a', 'b'],
      key: 'k',
      value: { v: 1 },
      createdAt: new Date(1),
      updatedAt: new Date(2),
    });
    expect(storeItemFromRow({ ...row, expires_at: 3 }).expiresAt).toEqual(new Date(3));
  });

  it('vectors from aligned and unaligned bytes, none without bytes or dims', () => {
    const floats = new Float32Array([1, 2, 3, 4]);
    const unaligned = new Uint8Array(floats.byteLength + 1).subarray(1);
    unaligned.set(new Uint8Array(floats.buffer));
    for (const bytes of [new Uint8Array(floats.buffer), unaligned]) {
      expect(vectorsFromBytes(bytes, 2)).toEqual([new Float32Array([1, 2]), new Float32Array([3, 4])]);
    }
    expect(vectorsFromBytes(null, 2)).toEqual([]);
    expect(vectorsFromBytes(new Uint8Array(floats.buffer), 0)).toEqual([]);
  });

  it('namespace ranges select a prefix and what lies beneath it', () => {
    const [exact, above, below] = namespaceRange(['memories']);
    const inRange = (ns: string) => ns === exact || (ns > above && ns < below);
    expect(['memories', 'memories.u1', 'memories.u1.x'].every(inRange)).toBe(true);
    expect(['memoriesX', 'memorie', 'other'].some(inRange)).toBe(false);
    expect(namespaceRange([])).toEqual(['', '', '\u{10FFFF}']);
  });
});
