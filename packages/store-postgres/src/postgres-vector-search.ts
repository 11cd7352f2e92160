import type { StoreSearchItem, StoreSearchOptions } from '@weft/compose';
import {
  rankItems,
  type StoreCandidate,
  type StoreRow,
  storeItemFromRow,
  vectorsFromBytes,
} from '@weft/compose/store';
import type { Pool } from 'pg';
import { type PgVector, vectorLiteral } from './pgvector.js';
import type { PostgresTables } from './postgres-schema.js';

/** What one in-database search needs. */
export interface DatabaseSearch {
  readonly pool: Pool;
  readonly tables: PostgresTables;
  readonly vector: PgVector;
  /** The prepared-statement name prefix of the store. */
  readonly name: string;
  /** The namespace range (`namespaceRange`) and the clock reading. */
  readonly range: readonly [string, string, string];
  readonly now: number;
}

/**
 * The HNSW search breadth (pgvector's `hnsw.ef_search`, default 40), raised to the rows asked for: a
 * wider search finds more of the true nearest (recall) for a little more time.
 */
const EF_SEARCH = 100;

/** Beyond this many dimensions pgvector has no HNSW index: the nearest are found by an exact scan. */
export const HNSW_MAX_DIMS = 2000;

interface NearestRow extends StoreRow {
  readonly dims: number | null;
  readonly vectors: Buffer | null;
  readonly distance: number;
  readonly fetched: number;
}

/**
 * The nearest vectors of a namespace prefix to `query`, found in PostgreSQL through the HNSW index of
 * their length (pgvector's iterative scan keeps going until `limit` rows of the prefix are found), with
 * their live documents: each document once, at its best (smallest) cosine distance.
 */
async function nearest(search: DatabaseSearch, query: readonly number[], limit: number) {
  const { tables, vector } = search;
  const dims = query.length;
  const cast = `${vector.type}(${dims})`;
  const client = await search.pool.connect();
  try {
    // One round trip (a simple query of three statements; the number is ours). Transaction-local: the
    // iterative scan in strict order goes on past filtered-out rows until LIMIT rows of the prefix.
    const ef = Math.min(1000, Math.max(EF_SEARCH, Math.trunc(limit)));
    await client.query(
      `BEGIN; SET LOCAL hnsw.iterative_scan = strict_order; SET LOCAL hnsw.ef_search = ${ef}`,
    );
    const { rows } = await client.query<NearestRow>({
      name: `${search.name}_nearest_${dims}`,
      text: `WITH nearest AS MATERIALIZED (
               SELECT ns, key, embedding::${cast} ${vector.distance} $5::${cast} AS distance
               FROM ${tables.storeVectors}
               WHERE dims = ${dims} AND (ns = $1 OR (ns > $2 AND ns < $3))
               ORDER BY embedding::${cast} ${vector.distance} $5::${cast}
               LIMIT $6
             )
             SELECT s.ns, s.key, s.value, s.created_at, s.updated_at, s.expires_at, s.dims, s.vectors,
                    min(n.distance) AS distance, (SELECT count(*) FROM nearest)::int AS fetched
             FROM nearest n JOIN ${tables.store} s ON s.ns = n.ns AND s.key = n.key
             WHERE s.expires_at IS NULL OR s.expires_at > $4
             GROUP BY s.ns, s.key`,
      values: [...search.range, search.now, vectorLiteral(query), limit],
    });
    await client.query('COMMIT');
    return { rows, fetched: rows[0]?.fetched ?? 0 };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * A vector search run in the database: asks for the nearest vectors of the prefix, ranks their
 * documents with the helpers every store shares (filter, exact score, recency, paging), and asks for four
 * times more while the page is not full and the prefix has more vectors. `undefined` when the prefix's
 * vectors are exhausted before the page is full: the page then reaches documents that have no vectors
 * (they come last), which only the exact in-process ranking orders — the caller falls back to it.
 */
export async function searchInDatabase(
  search: DatabaseSearch,
  query: readonly number[],
  options: StoreSearchOptions,
): Promise<StoreSearchItem[] | undefined> {
  const wanted = (options.offset ?? 0) + (options.limit ?? 10);
  if (wanted === 0) return [];
  for (let limit = wanted * 4; ; limit *= 4) {
    const { rows, fetched } = await nearest(search, query, limit);
    // The index chooses the candidates; their scores are computed from their stored vectors as every
    // store computes them (pgvector's float arithmetic differs in the last digits, which would reorder
    // ties), the database's distance only standing in for a document without them.
    const candidates: StoreCandidate[] = rows.map((row) => {
      const vectors = vectorsFromBytes(row.vectors, row.dims);
      const item = storeItemFromRow(row);
      return vectors.length > 0 ? { item, vectors } : { item, vectors, score: 1 - Number(row.distance) };
    });
    const ranked = rankItems(candidates, { ...options, offset: 0, limit: wanted }, query);
    if (ranked.length === wanted) return ranked.slice(options.offset ?? 0);
    if (fetched < limit) return undefined;
  }
}
