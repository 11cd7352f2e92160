import { CheckpointConflictError, END, START, StateGraph } from '@weft/compose';
import pg from 'pg';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { PostgresCheckpointer } from '../src/postgres-checkpointer.js';
import { withSharedPostgres } from './shared-postgres.js';

/**
 * Issue #52: a PostgreSQL claim dies with its lock connection. The holder must be told at once (its run
 * starts no further step) and a second process taking the thread over gets a higher epoch, which refuses
 * every write the stale holder still sends: each side effect runs once.
 */
withSharedPostgres('PostgresCheckpointer when its lock connection dies', ({ schema: schemaOf }) => {
  const url = process.env.WEFT_PG_URL as string;

  /** A checkpointer on its own pool, tagged so its lock connection can be found and killed. */
  const open = (schema: string, tag: string) => {
    const pool = new pg.Pool({ connectionString: url, max: 4, application_name: tag });
    return { pool, checkpointer: new PostgresCheckpointer({ pool, schema }) };
  };

  /** Terminates the connection of `tag` that holds advisory locks (its last statement took them). */
  const killLockConnection = async (tag: string): Promise<void> => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const { rows } = await admin.query<{ killed: boolean }>(
      `SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity
       WHERE application_name = $1 AND query LIKE '%pg_try_advisory_lock%'`,
      [tag],
    );
    await admin.end();
    expect(rows).toEqual([{ killed: true }]);
  };

  /** Claims the thread, trying again while the server has not yet dropped the killed session's lock. */
  const claimWhenFree = async (checkpointer: PostgresCheckpointer, threadId: string) => {
    for (;;) {
      try {
        return await checkpointer.claimThread(threadId);
      } catch (error) {
        if (!CheckpointConflictError.isInstance(error)) throw error;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  };

  it('tells the holder at once, and the next claim gets the next epoch', async () => {
    const schema = schemaOf('lockdeath');
    const tag = `weft-lockdeath-${schema}`;
    const a = open(schema, tag);
    const b = open(schema, `${tag}-b`);
    await a.checkpointer.setup();
    const claim = await a.checkpointer.claimThread('t1');
    const lost = new Promise<unknown>((resolve) =>
      claim.lost?.addEventListener('abort', () => resolve(claim.lost?.reason), { once: true }),
    );
    await killLockConnection(tag);
    const reason = await lost;
    expect(CheckpointConflictError.isInstance(reason)).toBe(true);
    expect((reason as Error).message).toContain('lock connection to PostgreSQL closed');
    const next = await claimWhenFree(b.checkpointer, 't1');
    expect(next.epoch).toBe((claim.epoch ?? 0) + 1);
    await next.release();
    await claim.release();
    await a.checkpointer.close();
    await b.checkpointer.close();
    await Promise.all([a.pool.end(), b.pool.end()]);
  });

  for (const groupCommit of [false, true]) {
    it(`a run whose lock connection dies runs no further step; the next process runs each step once${groupCommit ? ' (group commit)' : ''}`, async () => {
      const schema = schemaOf('lockdeathrun');
      const tag = `weft-lockdeathrun-${schema}`;
      const a = open(schema, tag);
      await a.checkpointer.setup();
      const bPool = new pg.Pool({ connectionString: url, max: 4 });
      const b = new PostgresCheckpointer({ pool: bPool, schema, groupCommit });
      const effects: string[] = [];
      let entered!: () => void;
      const inA = new Promise<void>((resolve) => {
        entered = resolve;
      });
      let releaseA!: () => void;
      const gateA = new Promise<void>((resolve) => {
        releaseA = resolve;
      });
      const build = (checkpointer: PostgresCheckpointer, name: string) =>
        new StateGraph(z.object({ log: z.array(z.string()) }))
          .addNode('a', async (s) => {
            if (name === 'A') {
              entered();
              await gateA;
            }
            return { log: [...s.log, `a:${name}`] };
          })
          .addNode('b', (s) => {
            effects.push(`b:${name}`);
            return { log: [...s.log, `b:${name}`] };
          })
          .addEdge(START, 'a')
          .addEdge('a', 'b')
          .addEdge('b', END)
          .compile({ checkpointer });
      const runA = build(a.checkpointer, 'A')
        .invoke({ log: [] }, { threadId: 't1' })
        .catch((error: unknown) => error);
      await inA;
      await killLockConnection(tag);
      // Process B takes the thread over once the server dropped the lock, and runs it to the end.
      const appB = build(b, 'B');
      let outputB: unknown;
      for (;;) {
        try {
          outputB = await appB.invoke(null, { threadId: 't1' });
          break;
        } catch (error) {
          if (!CheckpointConflictError.isInstance(error)) throw error;
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
      expect(outputB).toEqual({ log: ['a:B', 'b:B'] });
      // A wakes up: its claim is gone, so it neither runs `b` nor stores anything.
      releaseA();
      const errorA = await runA;
      expect(CheckpointConflictError.isInstance(errorA)).toBe(true);
      expect((errorA as Error).message).toContain('lost its claim');
      expect(effects).toEqual(['b:B']);
      expect((await b.get('t1'))?.checkpoint.step).toBe(1);
      await a.checkpointer.close();
      await b.close();
      await Promise.all([a.pool.end(), bPool.end()]);
    });
  }
});
