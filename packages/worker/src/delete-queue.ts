import { Queue } from 'bullmq';
import { queueKeys } from './internal/keys.js';
import { closeRedis, openRedis, type RedisConnection } from './redis-connection.js';

/**
 * Deletes a queue and everything the worker package keeps for it in Redis: BullMQ's jobs (waiting,
 * active, done), run records, event streams, leases and cancel epochs. Checkpoints (in the
 * checkpointer) are not touched. For tests and for retiring a queue; stop its workers first.
 *
 * @example
 * ```ts
 * await deleteQueue({ connection: 'redis://127.0.0.1:6379', queueName: 'weft-test-17' });
 * ```
 */
export async function deleteQueue(options: {
  readonly connection: RedisConnection;
  readonly queueName: string;
}): Promise<void> {
  const redis = openRedis(options.connection, { name: 'weft-delete-queue', blocking: true });
  try {
    const queue = new Queue(options.queueName, { connection: redis });
    await queue.obliterate({ force: true });
    await queue.close();
    const pattern = `${queueKeys(options.queueName).prefix}*`;
    let cursor = '0';
    do {
      const [next, found] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      cursor = next;
      if (found.length > 0) await redis.unlink(...found);
    } while (cursor !== '0');
  } finally {
    await closeRedis(redis);
  }
}
