import { describe, expect, it, vi } from 'vitest';
import { AsyncQueue } from './async-queue.js';

describe('AsyncQueue', () => {
  it('yields pushed items in order, then ends when closed', async () => {
    const queue = new AsyncQueue<number>();
    queue.push(1);
    queue.push(2);
    queue.close();
    queue.push(3);
    const seen: number[] = [];
    for await (const item of queue) seen.push(item);
    expect(seen).toEqual([1, 2]);
  });

  it('hands an item straight to a waiting consumer', async () => {
    const queue = new AsyncQueue<string>();
    const next = queue.next();
    expect(queue.push('direct')).toBeUndefined();
    expect(await next).toEqual({ value: 'direct', done: false });
  });

  it('offer queues past the high-water mark without a promise; the producer waits where it asks', async () => {
    const queue = new AsyncQueue<number>(2);
    for (let i = 1; i <= 5; i++) expect(queue.offer(i)).toBeUndefined();
    // No waiter queued for the items past the mark (push made and queued one for each).
    expect((queue as unknown as { spaceWaiters: unknown[] }).spaceWaiters).toHaveLength(0);
    const waiting = queue.waitForSpace();
    expect(waiting).toBeInstanceOf(Promise);
    let released = false;
    void waiting?.then(() => {
      released = true;
    });
    await queue.next();
    await queue.next();
    await queue.next();
    await Promise.resolve();
    // 2 left of 5, above the low-water mark (1): only the one waiter asked for, still waiting.
    expect(released).toBe(false);
    await queue.next();
    await Promise.resolve();
    expect(released).toBe(true);
    const next = queue.next();
    expect((await next).value).toBe(5);
    const direct = queue.next();
    queue.offer(6);
    expect(await direct).toEqual({ value: 6, done: false });
    queue.close();
    queue.offer(7);
    expect(await queue.next()).toEqual({ value: undefined, done: true });
  });

  it('makes the producer wait above the high-water mark until the consumer drained half of it', async () => {
    const queue = new AsyncQueue<number>(4);
    for (let i = 1; i <= 4; i++) expect(queue.push(i)).toBeUndefined();
    const blocked = queue.push(5);
    expect(blocked).toBeInstanceOf(Promise);
    expect(queue.waitForSpace()).toBeInstanceOf(Promise);
    let released = false;
    void blocked?.then(() => {
      released = true;
    });
    await Promise.resolve();
    expect(released).toBe(false);
    // 4 and then 3 items left: above the low-water mark (2), the producer still waits.
    await queue.next();
    await queue.next();
    await Promise.resolve();
    expect(released).toBe(false);
    // 2 left: the producer goes on, and pushes without waiting until the queue is full again.
    expect(await queue.next()).toEqual({ value: 3, done: false });
    await Promise.resolve();
    expect(released).toBe(true);
    expect(queue.waitForSpace()).toBeUndefined();
    expect(queue.push(6)).toBeUndefined();
    expect(queue.push(7)).toBeUndefined();
    expect(queue.push(8)).toBeInstanceOf(Promise);
  });

  it('delivers queued items before the failure, then throws it once', async () => {
    const queue = new AsyncQueue<number>();
    queue.push(1);
    queue.fail(new Error('broken'));
    expect(await queue.next()).toEqual({ value: 1, done: false });
    await expect(queue.next()).rejects.toThrow('broken');
    expect(await queue.next()).toEqual({ value: undefined, done: true });
  });

  it('rejects a waiting consumer when the producer fails', async () => {
    const queue = new AsyncQueue<number>();
    const next = queue.next();
    queue.fail(new Error('late'));
    await expect(next).rejects.toThrow('late');
  });

  it('calls onCancel once when the consumer stops early, and releases a blocked producer', async () => {
    const onCancel = vi.fn();
    const queue = new AsyncQueue<number>(1, onCancel);
    queue.push(1);
    const blocked = queue.push(2);
    for await (const item of queue) {
      expect(item).toBe(1);
      break;
    }
    await blocked;
    expect(onCancel).toHaveBeenCalledTimes(1);
    await queue.return();
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(queue.push(3)).toBeUndefined();
  });

  it('does not call onCancel after a normal end', async () => {
    const onCancel = vi.fn();
    const queue = new AsyncQueue<number>(8, onCancel);
    queue.close();
    for await (const _ of queue) expect.unreachable();
    await queue.return();
    expect(onCancel).not.toHaveBeenCalled();
  });

  it('keeps order across many items, the ring growing while it wraps around', async () => {
    const queue = new AsyncQueue<number>(10_000);
    for (let i = 0; i < 5000; i++) queue.push(i);
    const seen: number[] = [];
    for (let i = 0; i < 3000; i++) seen.push((await queue.next()).value as number);
    for (let i = 5000; i < 6000; i++) queue.push(i);
    queue.close();
    for await (const item of queue) seen.push(item);
    expect(seen).toEqual(Array.from({ length: 6000 }, (_, i) => i));
  });

  it('keeps order when the ring grows with its items wrapped around its end', async () => {
    // A small high-water mark: the ring starts at 16 slots. `offer` queues past the mark without waiting.
    const queue = new AsyncQueue<number>(4);
    const seen: number[] = [];
    let pushed = 0;
    // Offer 5, take 3, repeatedly: the head moves on while the ring fills, so it grows at every offset.
    for (let round = 0; round < 40; round++) {
      for (let i = 0; i < 5; i++) queue.offer(pushed++);
      for (let i = 0; i < 3; i++) seen.push((await queue.next()).value as number);
    }
    queue.close();
    for await (const item of queue) seen.push(item);
    expect(seen).toEqual(Array.from({ length: pushed }, (_, i) => i));
  });
});
