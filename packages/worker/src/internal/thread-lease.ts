import type { Redis } from 'ioredis';

const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/** Options of {@link ThreadLease.acquire}. */
export interface LeaseOptions {
  readonly redis: Redis;
  readonly key: string;
  /** Unique to this holder (worker id + run id + random). */
  readonly token: string;
  /** Time to live; renewed every `ttlMs / 3` while held. */
  readonly ttlMs: number;
  /** Called once if the lease is lost (taken over after expiry, or not renewable for `ttlMs`). */
  readonly onLost: () => void;
}

/**
 * Exclusive ownership of one thread across processes: `SET key token NX PX ttl`, renewed with a
 * compare-and-expire script while held, released with compare-and-delete (so a holder whose lease
 * expired never deletes its successor's). A holder that dies simply stops renewing; the key expires and
 * another worker may take the thread.
 */
export class ThreadLease {
  readonly #options: LeaseOptions;
  #timer: NodeJS.Timeout | undefined;
  #renewedAt = Date.now();
  #lost = false;

  private constructor(options: LeaseOptions) {
    this.#options = options;
  }

  /** Takes the lease, or returns `undefined` when another holder has it. */
  static async acquire(options: LeaseOptions): Promise<ThreadLease | undefined> {
    const ok = await options.redis.set(options.key, options.token, 'PX', options.ttlMs, 'NX');
    if (ok !== 'OK') return undefined;
    const lease = new ThreadLease(options);
    lease.#timer = setInterval(() => void lease.#renew(), Math.max(1, Math.floor(options.ttlMs / 3)));
    lease.#timer.unref();
    return lease;
  }

  /** True once the lease was lost. */
  get lost(): boolean {
    return this.#lost;
  }

  /**
   * Resolves while the lease is still this holder's (extending it, one round trip); rejects once another
   * worker took it — the fence of the run's effects.
   */
  async check(): Promise<void> {
    const { redis, key, token, ttlMs } = this.#options;
    if (!this.#lost && (await redis.eval(RENEW, 1, key, token, ttlMs)) === 1) {
      this.#renewedAt = Date.now();
      return;
    }
    this.#lose();
    throw new Error(`the lease "${key}" is no longer this worker's`);
  }

  /** Stops renewing and deletes the key if it is still ours. Never throws. */
  async release(): Promise<void> {
    clearInterval(this.#timer);
    const { redis, key, token } = this.#options;
    await redis.eval(RELEASE, 1, key, token).catch(() => undefined);
  }

  async #renew(): Promise<void> {
    const { redis, key, token, ttlMs } = this.#options;
    try {
      const renewed = await redis.eval(RENEW, 1, key, token, ttlMs);
      if (renewed === 1) this.#renewedAt = Date.now();
      else this.#lose();
    } catch {
      if (Date.now() - this.#renewedAt >= ttlMs) this.#lose();
    }
  }

  #lose(): void {
    if (this.#lost) return;
    this.#lost = true;
    clearInterval(this.#timer);
    this.#options.onLost();
  }
}
