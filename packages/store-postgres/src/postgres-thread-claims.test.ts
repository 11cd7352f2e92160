import { CheckpointConflictError } from '@weft/compose';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PostgresThreadClaims } from './postgres-thread-claims.js';

const url = process.env.WEFT_PG_URL;
const scope = `weft_test_claims_${process.pid.toString(36)}_${Date.now().toString(36)}`;

/** Counts the statements run on the pool's checked-out clients (each claim batch is one). */
function countingPool(connectionString: string): { pool: pg.Pool; statements: () => number } {
  const pool = new pg.Pool({ connectionString, max: 3 });
  let statements = 0;
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      statements += 1;
      return query(...args);
    };
  });
  return { pool, statements: () => statements };
}

const table = `"${scope}".claims`;

describe.skipIf(!url)('PostgresThreadClaims', () => {
  const pools: pg.Pool[] = [];
  beforeAll(async () => {
    const pool = new pg.Pool({ connectionString: url });
    await pool.query(
      `CREATE SCHEMA "${scope}"; CREATE TABLE ${table} (thread_id text PRIMARY KEY, epoch bigint NOT NULL)`,
    );
    await pool.end();
  });
  afterAll(async () => {
    const pool = new pg.Pool({ connectionString: url });
    await pool.query(`DROP SCHEMA "${scope}" CASCADE`);
    await pool.end();
  });
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((pool) => pool.end()));
  });

  it('takes and gives back claims queued together in fewer statements, exclusive across sessions', async () => {
    const mine = countingPool(url as string);
    const theirs = countingPool(url as string);
    pools.push(mine.pool, theirs.pool);
    const claims = new PostgresThreadClaims(mine.pool, scope, table);
    const other = new PostgresThreadClaims(theirs.pool, scope, table);
    const threads = Array.from({ length: 12 }, (_, index) => `t${index}`);
    const held = await Promise.all(threads.map((thread) => claims.claim(thread)));
    // The first claim went alone; the eleven queued behind it went in one statement.
    expect(mine.statements()).toBeLessThan(threads.length);
    // Another session is refused every held thread, in one batch too; a second claim here fails at once.
    const refused = await Promise.allSettled(threads.map((thread) => other.claim(thread)));
    expect(refused.every((result) => result.status === 'rejected')).toBe(true);
    expect(CheckpointConflictError.isInstance((refused[0] as PromiseRejectedResult).reason)).toBe(true);
    await expect(claims.claim('t0')).rejects.toSatisfy(CheckpointConflictError.isInstance);
    // Half given back while the other session claims them again: it gets exactly those.
    const freed = threads.slice(0, 6);
    await Promise.all(held.slice(0, 6).map((claim) => claim.release()));
    const retaken = await Promise.allSettled(threads.map((thread) => other.claim(thread)));
    expect(retaken.map((result) => result.status)).toEqual(
      threads.map((thread) => (freed.includes(thread) ? 'fulfilled' : 'rejected')),
    );
    // A thread released and claimed again in one process (unlock and lock in one batch) stays locked.
    const again = held[6]?.release().then(() => claims.claim('t6'));
    const reclaimed = await again;
    await expect(other.claim('t6')).rejects.toSatisfy(CheckpointConflictError.isInstance);
    await reclaimed?.release();
    await Promise.all(held.slice(7).map((claim) => claim.release()));
    await Promise.all(
      retaken.map((result) => (result.status === 'fulfilled' ? result.value.release() : undefined)),
    );
    await claims.close();
    await other.close();
    // Everything given back: the threads are free for a fresh session.
    const fresh = new PostgresThreadClaims(theirs.pool, scope, table);
    const all = await Promise.all(threads.map((thread) => fresh.claim(thread)));
    await Promise.all(all.map((claim) => claim.release()));
    await fresh.close();
  });
});
