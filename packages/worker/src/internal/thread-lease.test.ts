import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ThreadLease } from './thread-lease.js';

const url = process.env.WEFT_REDIS_URL ?? '';
if (url === '') console.warn('WEFT_REDIS_URL is not set: skipping the thread lease tests');

describe.skipIf(url === '')('ThreadLease', () => {
  const prefix = `weft:lease-test-${process.pid}-${Date.now()}:`;
  let redis: Redis;
  let count = 0;
  const key = () => `${prefix}${++count}`;

  beforeAll(() => {
    redis = new Redis(url);
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  const acquire = (leaseKey: string, token: string, onLost = () => undefined, ttlMs = 1500) =>
    ThreadLease.acquire({ redis, key: leaseKey, token, ttlMs, onLost });

  it('is held by one holder at a time and can be taken once released', async () => {
    const leaseKey = key();
    const first = await acquire(leaseKey, 'a');
    expect(first).toBeDefined();
    expect(await acquire(leaseKey, 'b')).toBeUndefined();
    await first?.release();
    const second = await acquire(leaseKey, 'b');
    expect(await redis.get(leaseKey)).toBe('b');
    await second?.release();
    expect(await redis.exists(leaseKey)).toBe(0);
  });

  it('is renewed while held, past its time to live', async () => {
    const leaseKey = key();
    const lease = await acquire(leaseKey, 'a', () => undefined, 1000);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(await redis.get(leaseKey)).toBe('a');
    expect(lease?.lost).toBe(false);
    await lease?.release();
  });

  it('never deletes a successor’s lease, and tells a holder that lost it', async () => {
    const leaseKey = key();
    let lost = 0;
    const stale = await acquire(leaseKey, 'a', () => void (lost += 1), 600);
    await redis.del(leaseKey); // as if it had expired while its holder was stuck
    const successor = await acquire(leaseKey, 'b');
    expect(successor).toBeDefined();
    while (!stale?.lost) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(lost).toBe(1);
    await stale.release();
    expect(await redis.get(leaseKey)).toBe('b');
    await successor?.release();
  });
});
