import type { Database, Statement } from 'better-sqlite3';

/** A row of `weft_store`. */
export interface StoreRow {
  readonly ns: string;
  readonly key: string;
  readonly value: string;
  readonly created_at: number;
  readonly updated_at: number;
  readonly expires_at: number | null;
  readonly dims: number | null;
  readonly vectors: Buffer | null;
}

const LIVE = '(expires_at IS NULL OR expires_at > ?)';
const IN_PREFIX = '(ns = ? OR (ns > ? AND ns < ?))';
const COLUMNS = 'ns, key, value, created_at, updated_at, expires_at';

/**
 * The three bounds that select a namespace prefix from the primary key: the prefix itself, and the
 * open range of namespaces beneath it (`prefix.` up to `prefix/`, `/` being the code point after `.`).
 * The empty prefix selects everything.
 */
export function namespaceRange(prefix: readonly string[]): [string, string, string] {
  if (prefix.length === 0) return ['', '', '\u{10FFFF}'];
  const joined = prefix.join('.');
  return [joined, `${joined}.`, `${joined}/`];
}

/** The vectors of a row, as float32 views over its blob. */
export function vectorsOf(row: StoreRow): Float32Array[] {
  if (row.vectors === null || row.dims === null || row.dims === 0) return [];
  const floats = new Float32Array(
    row.vectors.buffer,
    row.vectors.byteOffset,
    row.vectors.byteLength / Float32Array.BYTES_PER_ELEMENT,
  );
  const vectors: Float32Array[] = [];
  for (let start = 0; start < floats.length; start += row.dims)
    vectors.push(floats.subarray(start, start + row.dims));
  return vectors;
}

/** Prepared statements of the document store. */
export interface SqliteStoreStatements {
  readonly upsert: Statement;
  readonly get: Statement;
  readonly delete: Statement;
  readonly namespaces: Statement;
  readonly recent: Statement;
  readonly scan: Statement;
  readonly sweep: Statement;
}

/** Prepares the statements of the document store on `db`. */
export function sqliteStoreStatements(db: Database): SqliteStoreStatements {
  return {
    upsert: db.prepare(
      `INSERT INTO weft_store (ns, key, value, created_at, updated_at, expires_at, dims, vectors)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (ns, key) DO UPDATE SET
         value = excluded.value, updated_at = excluded.updated_at, expires_at = excluded.expires_at,
         dims = excluded.dims, vectors = excluded.vectors,
         created_at = CASE WHEN weft_store.expires_at IS NOT NULL AND weft_store.expires_at <= ?
                           THEN excluded.created_at ELSE weft_store.created_at END`,
    ),
    get: db.prepare(`SELECT ${COLUMNS} FROM weft_store WHERE ns = ? AND key = ? AND ${LIVE}`),
    delete: db.prepare('DELETE FROM weft_store WHERE ns = ? AND key = ?'),
    namespaces: db.prepare(`SELECT DISTINCT ns FROM weft_store WHERE ${IN_PREFIX} AND ${LIVE}`),
    recent: db.prepare(
      `SELECT ${COLUMNS} FROM weft_store WHERE ${IN_PREFIX} AND ${LIVE}
       ORDER BY updated_at DESC, ns, key LIMIT ? OFFSET ?`,
    ),
    scan: db.prepare(`SELECT ${COLUMNS}, dims, vectors FROM weft_store WHERE ${IN_PREFIX} AND ${LIVE}`),
    sweep: db.prepare('DELETE FROM weft_store WHERE expires_at IS NOT NULL AND expires_at <= ?'),
  };
}
