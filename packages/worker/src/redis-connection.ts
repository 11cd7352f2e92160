import { Redis, type RedisOptions } from 'ioredis';

/**
 * Where Redis is: a URL (`redis://127.0.0.1:6379/0`) or ioredis options. The worker and the client open
 * their own connections from it and close them on `close()`.
 *
 * @example
 * ```ts
 * const connection: RedisConnection = process.env.WEFT_REDIS_URL ?? 'redis://127.0.0.1:6379';
 * ```
 */
export type RedisConnection = string | Omit<RedisOptions, 'replyMapping'>;

/**
 * Opens a connection. `blocking` connections (BullMQ's, and blocking stream reads) retry commands
 * forever while reconnecting, as BullMQ requires (`maxRetriesPerRequest: null`); `pipelined` ones batch
 * the commands of one tick into one write (never use them for blocking commands).
 *
 * @example
 * ```ts
 * const redis = openRedis('redis://127.0.0.1:6379', { name: 'weft-worker' });
 * ```
 */
export function openRedis(
  connection: RedisConnection,
  options: { readonly name: string; readonly blocking?: boolean; readonly pipelined?: boolean },
): Redis {
  const extra: Omit<RedisOptions, 'replyMapping'> = {
    connectionName: options.name,
    ...(options.blocking ? { maxRetriesPerRequest: null } : {}),
    // Commands issued in one tick (a step's events, say) leave in one write.
    ...(options.pipelined ? { enableAutoPipelining: true } : {}),
  };
  return typeof connection === 'string'
    ? new Redis(connection, extra)
    : new Redis({ ...connection, ...extra });
}

/** Closes a connection, waiting for replies in flight; falls back to a hard disconnect. */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'end') return;
  try {
    await redis.quit();
  } catch {
    redis.disconnect();
  }
}
