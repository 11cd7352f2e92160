import pg, { type Pool } from 'pg';
import { type PostgresTables, postgresTables } from './postgres-schema.js';

/**
 * Where a PostgreSQL store of this package connects: a pool (yours) or a connection string (a pool it
 * owns), and the schema and table prefix of its tables. Every store's options start with these.
 *
 * @example
 * ```ts
 * import pg from 'pg';
 *
 * const yours: PostgresConnectionOptions = { pool: new pg.Pool(), schema: 'agents', tablePrefix: 'app1_' };
 * const owned: PostgresConnectionOptions = { connectionString: 'postgres://localhost/app' };
 * ```
 */
export type PostgresConnectionOptions = ({ readonly pool: Pool } | { readonly connectionString: string }) & {
  /** Schema that holds the tables; `public` by default. Created by `setup()` when missing. */
  readonly schema?: string;
  /** Prefix of the table names (`<prefix>checkpoints`, ...); `weft_` by default. */
  readonly tablePrefix?: string;
};

/** A store's pool, whether the store owns it (and ends it on `close`), and its tables. */
export interface PostgresConnection {
  readonly pool: Pool;
  readonly ownsPool: boolean;
  readonly tables: PostgresTables;
}

/**
 * The connection of a store's options: the table names are checked first (so a bad name opens no pool);
 * a pool made from a connection string gets an `error` listener, since an idle client that loses its
 * connection is dropped by the pool and, without a listener, its `error` event would crash the process.
 *
 * @throws {WeftError} code `INVALID_ARGUMENT` when the schema or table prefix is not a plain identifier.
 * @example
 * ```ts
 * const { pool, ownsPool, tables } = postgresConnection({ connectionString: 'postgres://localhost/app' });
 * ownsPool; // true: the store ends this pool on close()
 * tables.checkpoints; // '"public"."weft_checkpoints"'
 * ```
 */
export function postgresConnection(options: PostgresConnectionOptions): PostgresConnection {
  const tables = postgresTables(options.schema ?? 'public', options.tablePrefix ?? 'weft_');
  if ('pool' in options) return { pool: options.pool, ownsPool: false, tables };
  const pool = new pg.Pool({ connectionString: options.connectionString });
  pool.on('error', () => undefined);
  return { pool, ownsPool: true, tables };
}
