import type { StoreIndexConfig, StoreItem, StorePutOptions, StoreValue } from './store.js';
import { checkPut, joinNamespace, splitNamespace } from './store-namespace.js';
import { embedDocument } from './store-search.js';

/**
 * A document as a SQL store reads it back: the namespace joined ({@link joinNamespace}), the value as JSON
 * text, times in milliseconds since the epoch (`expires_at` `null` for no expiry).
 */
export interface StoreRow {
  readonly ns: string;
  readonly key: string;
  readonly value: string;
  readonly created_at: number;
  readonly updated_at: number;
  readonly expires_at: number | null;
}

/** What a SQL store writes for one `put`, checked and embedded by {@link storeRowForPut}. */
export interface StoreRowWrite {
  /** The joined namespace. */
  readonly ns: string;
  readonly key: string;
  /** The value as JSON text. */
  readonly value: string;
  /** The write's time (the clock read once the document is embedded). */
  readonly now: number;
  /** `now + ttlMs`, or `null` without a TTL. */
  readonly expiresAt: number | null;
  /** Length of each vector, or `null` when nothing was embedded. */
  readonly dims: number | null;
  /** The vectors one after another (`dims` floats each), or `null` when nothing was embedded. */
  readonly vectors: Float32Array | null;
}

/** The arguments of a store's `put`, with the store's index and clock. */
export interface StorePutRequest {
  readonly namespace: readonly string[];
  readonly key: string;
  readonly value: StoreValue;
  readonly options: StorePutOptions | undefined;
  readonly index: StoreIndexConfig | undefined;
  readonly now: () => number;
}

/**
 * The first half of every SQL store's `put`: checks the arguments, embeds the indexed fields and computes
 * the row — so the stores differ only in the statement that writes it.
 *
 * @throws {WeftError} code `INVALID_ARGUMENT` naming the argument at fault (see `checkPut`).
 * @example
 * ```ts
 * const row = await storeRowForPut({
 *   namespace: ['memories', 'u1'],
 *   key: 'm1',
 *   value: { text: 'prefers tea' },
 *   options: { ttlMs: 60_000 },
 *   index: { embeddings: new HashingEmbeddings({ dimensions: 64 }), fields: ['text'] },
 *   now: Date.now,
 * });
 * row.ns; // 'memories.u1'
 * row.dims; // 64 — and row.vectors holds the 64 floats, to store as bytes: new Uint8Array(row.vectors.buffer)
 * ```
 */
export async function storeRowForPut(request: StorePutRequest): Promise<StoreRowWrite> {
  const { namespace, key, value, options } = request;
  checkPut(namespace, key, value, options);
  const embedded = await embedDocument(request.index, value, options);
  const now = request.now();
  const dims = embedded[0]?.length ?? null;
  return {
    ns: joinNamespace(namespace),
    key,
    value: JSON.stringify(value),
    now,
    expiresAt: options?.ttlMs === undefined ? null : now + options.ttlMs,
    dims,
    vectors: dims === null ? null : new Float32Array(embedded.flat()),
  };
}

/**
 * The item of a stored document row.
 *
 * @example
 * ```ts
 * const item = storeItemFromRow({
 *   ns: 'memories.u1', key: 'm1', value: '{"text":"prefers tea"}', created_at: 0, updated_at: 0, expires_at: null,
 * });
 * item.namespace; // ['memories', 'u1']
 * ```
 */
export function storeItemFromRow(row: StoreRow): StoreItem {
  return {
    namespace: splitNamespace(row.ns),
    key: row.key,
    value: JSON.parse(row.value) as StoreValue,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    ...(row.expires_at === null ? {} : { expiresAt: new Date(row.expires_at) }),
  };
}

/**
 * The vectors of a stored blob of float32s (`dims` each), as views over the bytes when they are aligned
 * and over a copy when not (a driver's buffer may start at any byte). No vectors without bytes or dims.
 *
 * @example
 * ```ts
 * const bytes = new Uint8Array(new Float32Array([1, 0, 0, 1]).buffer);
 * vectorsFromBytes(bytes, 2); // [Float32Array [1, 0], Float32Array [0, 1]]
 * ```
 */
export function vectorsFromBytes(
  bytes: Uint8Array | null | undefined,
  dims: number | null | undefined,
): Float32Array[] {
  if (!bytes || !dims) return [];
  const count = Math.floor(bytes.byteLength / Float32Array.BYTES_PER_ELEMENT);
  const floats =
    bytes.byteOffset % Float32Array.BYTES_PER_ELEMENT === 0
      ? new Float32Array(bytes.buffer, bytes.byteOffset, count)
      : new Float32Array(bytes.slice(0, count * Float32Array.BYTES_PER_ELEMENT).buffer);
  const vectors: Float32Array[] = [];
  for (let start = 0; start < floats.length; start += dims)
    vectors.push(floats.subarray(start, start + dims));
  return vectors;
}
