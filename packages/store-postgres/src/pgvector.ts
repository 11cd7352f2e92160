import { WeftError } from '@weft/compose';
import { vectorsFromBytes } from '@weft/compose/store';
import type { Pool, PoolClient } from 'pg';
import type { PostgresTables } from './postgres-schema.js';

/**
 * How a `PostgresStore` ranks vector queries: `auto` (default) in the database with pgvector when the
 * server has it (the extension is created if missing), else in process; `database` requires pgvector
 * (setup fails without it); `in-process` never uses it.
 *
 * @example
 * ```ts
 * const mode: VectorSearchMode = process.env.PGVECTOR === 'off' ? 'in-process' : 'auto';
 * ```
 */
export type VectorSearchMode = 'auto' | 'database' | 'in-process';

/** Where pgvector lives once found: its schema (types and operators are qualified with it). */
export interface PgVector {
  readonly schema: string;
  /** `"schema".vector`. */
  readonly type: string;
  /** `OPERATOR("schema".<=>)`, cosine distance. */
  readonly distance: string;
}

const DUPLICATE = new Set(['23505', '42710', '42P07']);

/** The schema pgvector is installed in, or `undefined`. */
async function installedIn(client: Pool | PoolClient): Promise<string | undefined> {
  const { rows } = await client.query<{ schema: string }>(
    `SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
     WHERE e.extname = 'vector'`,
  );
  return rows[0]?.schema;
}

/**
 * Finds pgvector, with `create` creating the extension when the server has it and this role may
 * (`CREATE EXTENSION IF NOT EXISTS vector`); `undefined` when it cannot be had (not installed, no
 * privilege), unless `mode` is `database`, which then throws.
 *
 * @throws {WeftError} `INVALID_ARGUMENT` in `database` mode when pgvector cannot be used.
 */
export async function findPgVector(
  pool: Pool,
  mode: VectorSearchMode,
  create: boolean,
): Promise<PgVector | undefined> {
  let schema = await installedIn(pool);
  if (schema === undefined && create) {
    try {
      await pool.query('CREATE EXTENSION IF NOT EXISTS vector');
    } catch (error) {
      // Another process created it at the same moment: fine. Anything else: not available here.
      const code = (error as { code?: string }).code;
      if (!(code && DUPLICATE.has(code))) {
        if (mode === 'database') {
          throw new WeftError(
            'INVALID_ARGUMENT',
            `PostgresStore: vectorSearch 'database' needs pgvector, which cannot be used here: ${(error as Error).message} (install postgresql-NN-pgvector and let a superuser run CREATE EXTENSION vector)`,
            { cause: error },
          );
        }
        return undefined;
      }
    }
    schema = await installedIn(pool);
  }
  if (schema === undefined) {
    if (mode === 'database')
      throw new WeftError('INVALID_ARGUMENT', "PostgresStore: vectorSearch 'database' needs pgvector");
    return undefined;
  }
  const quoted = `"${schema.replaceAll('"', '""')}"`;
  return { schema, type: `${quoted}.vector`, distance: `OPERATOR(${quoted}.<=>)` };
}

/** A pgvector literal of float32 values (`[0.1,0.2]`): each value exactly as stored. */
export function vectorLiteral(vector: ArrayLike<number>): string {
  return `[${Array.prototype.join.call(vector, ',')}]`;
}

/** The vectors of a put as pgvector literals, one per indexed field. */
export function vectorLiterals(vectors: Float32Array | null, dims: number | null): string[] {
  if (!vectors || !dims) return [];
  const literals: string[] = [];
  for (let start = 0; start < vectors.length; start += dims)
    literals.push(vectorLiteral(vectors.subarray(start, start + dims)));
  return literals;
}

/** Whether the store's vector table exists (another store object, or another process, made it). */
export async function vectorTableExists(pool: Pool, tables: PostgresTables): Promise<boolean> {
  const { rows } = await pool.query<{ found: string | null }>('SELECT to_regclass($1) AS found', [
    tables.storeVectors,
  ]);
  return rows[0]?.found !== null && rows[0]?.found !== undefined;
}

/**
 * Runs `body` in a transaction holding the advisory lock `lock` (released with it), on one pooled
 * connection; rolls back when it fails.
 */
async function lockedTransaction(pool: Pool, lock: string, body: (client: PoolClient) => Promise<void>) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [lock]);
    await body(client);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Creates the vector table beside the store table (one row per indexed field of a document, deleted
 * with it) and, when it is new, fills it from the documents stored before (their float32 `bytea`).
 * Serialized across processes by an advisory lock on the table's name.
 */
export async function setupVectorTable(pool: Pool, tables: PostgresTables, vector: PgVector): Promise<void> {
  await lockedTransaction(pool, `weft:${tables.storeVectors}`, async (client) => {
    const { rows } = await client.query<{ found: string | null }>('SELECT to_regclass($1) AS found', [
      tables.storeVectors,
    ]);
    if (rows[0]?.found !== null) return;
    await client.query(`
      CREATE TABLE ${tables.storeVectors} (
        ns        text COLLATE "C" NOT NULL,
        key       text COLLATE "C" NOT NULL,
        field     integer NOT NULL,
        dims      integer NOT NULL,
        embedding ${vector.type} NOT NULL,
        PRIMARY KEY (ns, key, field),
        FOREIGN KEY (ns, key) REFERENCES ${tables.store} (ns, key) ON DELETE CASCADE
      )`);
    await backfill(client, tables, vector);
  });
}

/** Copies the vectors of documents written without pgvector into the vector table, in batches. */
async function backfill(client: PoolClient, tables: PostgresTables, vector: PgVector): Promise<void> {
  let after = { ns: '', key: '' };
  for (;;) {
    const { rows } = await client.query<{ ns: string; key: string; dims: number; vectors: Buffer }>(
      `SELECT ns, key, dims, vectors FROM ${tables.store}
       WHERE vectors IS NOT NULL AND dims IS NOT NULL AND (ns, key) > ($1, $2)
       ORDER BY ns, key LIMIT 500`,
      [after.ns, after.key],
    );
    if (rows.length === 0) return;
    const ns: string[] = [];
    const keys: string[] = [];
    const fields: number[] = [];
    const dims: number[] = [];
    const literals: string[] = [];
    for (const row of rows) {
      for (const [field, vector] of vectorsFromBytes(row.vectors, row.dims).entries()) {
        ns.push(row.ns);
        keys.push(row.key);
        fields.push(field);
        dims.push(row.dims);
        literals.push(vectorLiteral(vector));
      }
    }
    await client.query(
      `INSERT INTO ${tables.storeVectors} (ns, key, field, dims, embedding)
       SELECT ns, key, field, dims, e::${vector.type}
       FROM unnest($1::text[], $2::text[], $3::int[], $4::int[], $5::text[]) AS v(ns, key, field, dims, e)
       ON CONFLICT DO NOTHING`,
      [ns, keys, fields, dims, literals],
    );
    const last = rows.at(-1) as { ns: string; key: string };
    after = { ns: last.ns, key: last.key };
  }
}

/**
 * Creates the HNSW index (cosine distance) of the vectors of one length, a partial index over an
 * expression with that length, since a document store may hold vectors of any length. Idempotent.
 */
export async function ensureHnswIndex(
  pool: Pool,
  tables: PostgresTables,
  vector: PgVector,
  dims: number,
): Promise<void> {
  if (!(Number.isInteger(dims) && dims > 0))
    throw new RangeError(`vector length ${dims} is not a positive integer`);
  const name = `${tables.prefix}store_vectors_hnsw_${dims}`;
  await lockedTransaction(pool, `weft:${tables.storeVectors}:${dims}`, async (client) => {
    await client.query(
      `CREATE INDEX IF NOT EXISTS "${name}" ON ${tables.storeVectors}
       USING hnsw ((embedding::${vector.type}(${dims})) ${quotedOps(vector)}) WHERE dims = ${dims}`,
    );
  });
}

function quotedOps(vector: PgVector): string {
  return `"${vector.schema.replaceAll('"', '""')}".vector_cosine_ops`;
}
