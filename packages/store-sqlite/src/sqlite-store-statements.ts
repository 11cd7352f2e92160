import type { StoreRow } from '@weft/compose/store';
import type { Database, Statement } from 'better-sqlite3';

/** A row of `weft_store`, with its vectors. */
export interface SqliteStoreRow extends StoreRow {
  readonly dims: number | null;
  readonly vectors: Buffer | null;
}

const LIVE = '(expires_at IS NULL OR expires_at > ?)';
const IN_PREFIX = '(ns = ? OR (ns > ? AND ns < ?))';
const COLUMNS = 'ns, key, value, created_at, updated_at, expires_at';

/** Prepared statements of the document store. */
export interface SqliteStoreStatements {
  readonly upsert: Statement;
  /** Inserts, or replaces only an expired document (no change: the key is taken). */
  readonly insertIfAbsent: Statement;
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
    insertIfAbsent: db.prepare(
      `INSERT INTO weft_store (ns, key, value, created_at, updated_at, expires_at, dims, vectors)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (ns, key) DO UPDATE SET
         value = excluded.value, created_at = excluded.created_at, updated_at = excluded.updated_at,
         expires_at = excluded.expires_at, dims = excluded.dims, vectors = excluded.vectors
       WHERE weft_store.expires_at IS NOT NULL AND weft_store.expires_at <= ?`,
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
