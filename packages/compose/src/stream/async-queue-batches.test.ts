import { describe, expect, it, vi } from 'vitest';
import { AsyncQueue } from './async-queue.js';

async function allBatches<T>(source: AsyncIterable<T[]>): Promise<T[][]> {
  const batches: T[][] = [];
  for await (const batch of source) batches.push(batch);
  return batches;
}

describe('AsyncQueue.batches', () => {
  it('yields every queued item as one array, then ends when closed', async () => {
    const queue = new AsyncQueue<number>();
    queue.push(1);
    queue.push(2);
    queue.push(3);
    queue.close();
    expect(await allBatches(queue.batches())).toEqual([[1, 2, 3]]);
  });

  it('joins the items a producer pushes in one burst after a waiting consumer asked', async () => {
    const queue = new AsyncQueue<number>();
    const batches = queue.batches();
    const first = batches.next();
    // One synchronous burst: the first item wakes the consumer, the rest join it before it resumes.
    for (let i = 0; i < 5; i++) queue.push(i);
    expect(await first).toEqual({ value: [0, 1, 2, 3, 4], done: false });
    queue.push(5);
    queue.close();
    expect(await batches.next()).toEqual({ value: [5], done: false });
    expect(await batches.next()).toEqual({ value: undefined, done: true });
  });

  it('never yields an empty array and keeps order across bursts and ring wrap-arounds', async () => {
    const queue = new AsyncQueue<number>(Number.POSITIVE_INFINITY);
    const batches = queue.batches();
    const seen: number[] = [];
    let pushed = 0;
    for (let round = 0; round < 40; round++) {
      for (let i = 0; i < 1 + (round % 7); i++) queue.push(pushed++);
      const { value } = await batches.next();
      expect(value?.length).toBeGreaterThan(0);
      seen.push(...(value ?? []));
      // Take one item alone now and then so the head wraps around the ring.
      if (round % 3 === 0) {
        queue.push(pushed++);
        seen.push((await queue.next()).value as number);
      }
    }
    expect(seen).toEqual(Array.from({ length: pushed }, (_, i) => i));
  });

  it('releases a producer waiting above the high-water mark once it takes the batch', async () => {
    const queue = new AsyncQueue<number>(2);
    queue.push(1);
    queue.push(2);
    const blocked = queue.push(3);
    expect(blocked).toBeInstanceOf(Promise);
    let released = false;
    void blocked?.then(() => {
      released = true;
    });
    expect((await queue.batches().next()).value).toEqual([1, 2, 3]);
    await Promise.resolve();
    expect(released).toBe(true);
    expect(queue.waitForSpace()).toBeUndefined();
  });

  it('delivers queued items before the failure, then throws it', async () => {
    const queue = new AsyncQueue<number>();
    const batches = queue.batches();
    queue.push(1);
    queue.push(2);
    queue.fail(new Error('broken'));
    expect(await batches.next()).toEqual({ value: [1, 2], done: false });
    await expect(batches.next()).rejects.toThrow('broken');
    expect(await batches.next()).toEqual({ value: undefined, done: true });
  });

  it('rejects a waiting consumer when the producer fails', async () => {
    const queue = new AsyncQueue<number>();
    const next = queue.batches().next();
    queue.fail(new Error('late'));
    await expect(next).rejects.toThrow('late');
  });

  it('cancels the producer once when the consumer breaks out', async () => {
    const onCancel = vi.fn();
    const queue = new AsyncQueue<number>(1, onCancel);
    queue.push(1);
    const blocked = queue.push(2);
    for await (const batch of queue.batches()) {
      expect(batch).toEqual([1, 2]);
      break;
    }
    await blocked;
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(queue.push(3)).toBeUndefined();
  });
});
