import type { Redis } from 'ioredis';
import { decodeEntry, parsePosition, type StreamEntry } from './event-codec.js';

/** Options of {@link readStream}. */
export interface ReadStreamOptions {
  /** Position to read after: `0` (default) replays the backlog, `$` only new entries, or an entry's id. */
  readonly from?: string | undefined;
  /** Stops reading (the iterator ends quietly). */
  readonly signal?: AbortSignal | undefined;
  /** Longest wait per blocking read, in ms (default 5000); only bounds how often the loop wakes. */
  readonly blockMs?: number;
}

/**
 * Reads a thread's stream from `from` on, following it as it grows: the backlog first, then new entries
 * as they arrive (`XREAD BLOCK`). Uses `redis` for itself (a blocking read holds the connection) and
 * disconnects it when the iterator ends, so pass a fresh connection.
 */
export async function* readStream(
  redis: Redis,
  key: string,
  options: ReadStreamOptions = {},
): AsyncGenerator<StreamEntry, void, undefined> {
  const { signal } = options;
  const position = parsePosition(options.from ?? '0');
  let lastId = position.streamId;
  const stop = (): void => redis.disconnect();
  signal?.addEventListener('abort', stop, { once: true });
  try {
    if (lastId === '$') lastId = await latestId(redis, key);
    if (position.after !== undefined) {
      // Resuming inside a batch: the rest of that entry first.
      const rest = (await redis.xrange(key, lastId, lastId)) as Array<[string, string[]]>;
      for (const [id, fields] of rest) {
        for (const entry of decodeEntry(id, fields))
          if (Number(entry.id.split('/')[1]) > position.after) yield entry;
      }
    }
    while (!signal?.aborted) {
      let reply: Array<[string, Array<[string, string[]]>]> | null;
      try {
        reply = (await redis.xread(
          'COUNT',
          500,
          'BLOCK',
          options.blockMs ?? 5000,
          'STREAMS',
          key,
          lastId,
        )) as Array<[string, Array<[string, string[]]>]> | null;
      } catch (error) {
        // Aborted, or the client closed this connection: the iteration simply ends.
        if (signal?.aborted || redis.status === 'end' || redis.status === 'close') return;
        throw error;
      }
      for (const [, entries] of reply ?? []) {
        for (const [id, fields] of entries) {
          lastId = id;
          yield* decodeEntry(id, fields);
        }
      }
    }
  } finally {
    signal?.removeEventListener('abort', stop);
    redis.disconnect();
  }
}

/** The id of the stream's newest entry (`0-0` when empty or absent). */
export async function latestId(redis: Redis, key: string): Promise<string> {
  const last = (await redis.xrevrange(key, '+', '-', 'COUNT', 1)) as Array<[string, string[]]>;
  return last[0]?.[0] ?? '0-0';
}
