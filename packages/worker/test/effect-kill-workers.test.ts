import { CountingServer, type EffectKillState, effectKillPoints } from '@weft/compose/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient, deleteQueue } from '../src/index.js';
import {
  freshCheckpointer,
  missingServices,
  pgUrl,
  redisUrl,
  spawnWorker,
  unique,
  type WorkerProcess,
} from './helpers.js';

/** Requests the charge's key reaches the external system with, per kill point (the email's: always 1). */
const chargeRequests: Record<(typeof effectKillPoints)[number], number> = {
  'before-call': 1,
  'after-call': 2,
  'after-record': 1,
  'during-checkpoint': 1,
};

// Two worker processes with default settings (a PostgreSQL checkpointer, so a run journal and leases in
// PostgreSQL): the first takes the run and dies with SIGKILL at a point around its charge effect, the
// second takes the run over once the first one's job lock and lease expire (the matrix of ADR 035).
describe.skipIf(missingServices)(
  'effects across two worker processes, the first killed at every point',
  () => {
    let server: CountingServer;
    const processes: WorkerProcess[] = [];

    beforeAll(async () => {
      server = await CountingServer.start();
    });
    afterEach(async () => {
      await Promise.all(processes.splice(0).map((worker) => worker.kill()));
    });
    afterAll(async () => {
      await server?.close();
    });

    for (const point of effectKillPoints) {
      it(`applies each effect once when the worker is killed ${point.replace('-', ' ')}`, async () => {
        const store = await freshCheckpointer();
        const queueName = unique('weft-test-effects');
        const env = {
          WEFT_REDIS_URL: redisUrl,
          WEFT_PG_URL: pgUrl,
          WEFT_QUEUE: queueName,
          WEFT_PG_SCHEMA: store.schema,
          WEFT_CONCURRENCY: '1',
          WEFT_LEASE_MS: '1500',
          WEFT_LOCK_MS: '1500',
          WEFT_STALLED_MS: '500',
          WEFT_EFFECT_URL: server.url,
        };
        const client = createClient({ connection: redisUrl, queueName, checkpointer: store.checkpointer });
        try {
          const first = spawnWorker('k1', { ...env, WEFT_KILL_POINT: point });
          processes.push(first);
          await first.ready;
          const threadId = unique(`effects-${point}`);
          const handle = await client.submit('order', { order: threadId }, { threadId });
          expect(await first.exited).toBeNull(); // killed by a signal (its own SIGKILL)
          expect(first.child.signalCode).toBe('SIGKILL');
          const second = spawnWorker('k2', env);
          processes.push(second);
          await second.ready;
          const result = await handle.result();
          expect(result.status).toBe('done');
          const mine = (path: string) =>
            [...server.requests].filter(
              ([key]) => key.startsWith(`${path} `) && server.threads.get(key) === threadId,
            );
          const charges = mine('/charges');
          const emails = mine('/emails');
          expect(charges.map(([, n]) => n)).toEqual([chargeRequests[point]]);
          expect(emails.map(([, n]) => n)).toEqual([1]);
          expect(result.output as EffectKillState).toEqual({
            order: threadId,
            receipt: server.applied.get(charges[0]?.[0] as string),
            mail: server.applied.get(emails[0]?.[0] as string),
            shipped: true,
          });
        } finally {
          await client.close();
          await deleteQueue({ connection: redisUrl, queueName });
          await store.drop();
        }
      }, 600_000);
    }
  },
);
