import type { Redis } from 'ioredis';
import { WorkerError } from '../worker-error.js';
import type { QueueKeys } from './keys.js';

/** How long a thread's cancel epoch is kept after its last cancel (7 days). */
const EPOCH_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The worker side of cancel. A cancel raises the thread's *epoch* (a counter) and publishes the thread
 * id: a worker running the thread aborts it at once (the message), and a job submitted before the
 * cancel but not yet running is cancelled when a worker picks it up (its epoch is older).
 */
export class CancelListener {
  readonly #controllers = new Map<string, Set<AbortController>>();

  private constructor(
    private readonly redis: Redis,
    private readonly keys: QueueKeys,
  ) {}

  /** Subscribes `subscriber` (a connection of its own) to the queue's cancel channel. */
  static async start(redis: Redis, subscriber: Redis, keys: QueueKeys): Promise<CancelListener> {
    const listener = new CancelListener(redis, keys);
    subscriber.on('message', (channel: string, threadId: string) => {
      if (channel === keys.cancelChannel) listener.#abort(threadId);
    });
    await subscriber.subscribe(keys.cancelChannel);
    return listener;
  }

  /** Routes cancels of `threadId` to `controller` until the returned function is called. */
  register(threadId: string, controller: AbortController): () => void {
    let set = this.#controllers.get(threadId);
    if (!set) this.#controllers.set(threadId, (set = new Set()));
    set.add(controller);
    return () => {
      set.delete(controller);
      if (set.size === 0) this.#controllers.delete(threadId);
    };
  }

  /** True when the thread was cancelled after a job with `epoch` was submitted. */
  async isCancelled(threadId: string, epoch: number): Promise<boolean> {
    return (await readEpoch(this.redis, this.keys, threadId)) > epoch;
  }

  /** Aborts every local run with `reason` (used by `close({ requeue: true })`). */
  abortAll(reason: WorkerError): void {
    for (const set of this.#controllers.values()) for (const controller of set) controller.abort(reason);
  }

  #abort(threadId: string): void {
    const reason = new WorkerError('CANCELLED', `thread "${threadId}" was cancelled`);
    for (const controller of this.#controllers.get(threadId) ?? []) controller.abort(reason);
  }
}

/** The thread's current cancel epoch (0 when never cancelled). */
export async function readEpoch(redis: Redis, keys: QueueKeys, threadId: string): Promise<number> {
  return Number((await redis.get(keys.cancelEpoch(threadId))) ?? 0);
}

/** Cancels the thread: raises its epoch, then tells the worker running it. */
export async function publishCancel(redis: Redis, keys: QueueKeys, threadId: string): Promise<void> {
  const key = keys.cancelEpoch(threadId);
  await redis.multi().incr(key).pexpire(key, EPOCH_TTL_MS).publish(keys.cancelChannel, threadId).exec();
}
