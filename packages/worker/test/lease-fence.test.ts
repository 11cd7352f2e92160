import { END, MemoryCheckpointer, START, StateGraph } from '@weft/compose';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PostgresRunJournal } from '../src/index.js';
import { JournalLease } from '../src/internal/journal-lease.js';
import { ThreadLease } from '../src/internal/thread-lease.js';
import { freshCheckpointer, missingServices, pgUrl, redisUrl, unique } from './helpers.js';

/** A charge effect in a graph run under `fence`; counts the external calls in `calls`. */
function chargeGraph(calls: string[]) {
  return new StateGraph(z.object({ receipt: z.string().optional() }))
    .addNode('charge', async (_s, ctx) => ({
      receipt: await ctx.effect('charge', ({ idempotencyKey }) => {
        calls.push(idempotencyKey);
        return `r-${calls.length}`;
      }),
    }))
    .addEdge(START, 'charge')
    .addEdge('charge', END)
    .compile({ checkpointer: new MemoryCheckpointer() });
}

// A worker whose lease another worker took (it stalled past the lease's life) must not record its
// effect: the lease is the run's fence, checked before the record (ADR 035).
describe.skipIf(missingServices)('a lost lease fences the run’s effects', () => {
  const queue = unique('weft-test-fence');
  let journal: PostgresRunJournal;
  let drop: () => Promise<void>;
  let redis: Redis;

  beforeAll(async () => {
    const store = await freshCheckpointer();
    drop = store.drop;
    journal = new PostgresRunJournal({ connectionString: pgUrl, schema: store.schema });
    await journal.setup();
    redis = new Redis(redisUrl);
  });
  afterAll(async () => {
    redis?.disconnect();
    await journal?.close();
    await drop?.();
  });

  it('in PostgreSQL: the effect fails as EFFECT_FENCED once another holder took the lease', async () => {
    let lost = 0;
    const mine = await JournalLease.acquire({
      journal,
      queue,
      threadId: 'fenced',
      token: 'w1:run',
      ttlMs: 60_000,
      onLost: () => lost++,
    });
    expect(mine).toBeDefined();
    await mine?.check(); // held: resolves
    // The lease expires (a stalled worker) and another worker takes it.
    await journal.releaseLease(queue, 'fenced', 'w1:run');
    expect(await journal.acquireLease(queue, 'fenced', { token: 'w2:run', ttlMs: 60_000 })).toBe(true);
    const calls: string[] = [];
    const error = await chargeGraph(calls)
      .invoke({}, { threadId: 'fenced', fence: mine as JournalLease })
      .catch((e: unknown) => e);
    expect((error as { cause?: unknown }).cause).toMatchObject({ code: 'EFFECT_FENCED' });
    expect(calls).toHaveLength(1); // it ran (the external system dedups its key), but was not recorded
    expect(lost).toBe(1);
    await mine?.release();
  });

  it('in Redis: the same with the Redis lease', async () => {
    const key = `weft:${queue}:lease:fenced`;
    const mine = await ThreadLease.acquire({ redis, key, token: 'w1:run', ttlMs: 60_000, onLost: () => {} });
    await mine?.check();
    await redis.set(key, 'w2:run', 'PX', 60_000);
    const error = await chargeGraph([])
      .invoke({}, { threadId: 'fenced', fence: mine as ThreadLease })
      .catch((e: unknown) => e);
    expect((error as { cause?: unknown }).cause).toMatchObject({ code: 'EFFECT_FENCED' });
    await redis.del(key);
  });
});
