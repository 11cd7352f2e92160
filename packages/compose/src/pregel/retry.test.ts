import { afterEach, describe, expect, it, vi } from 'vitest';
import { WeftError } from '../errors/weft-error.js';
import { retryDelay, shouldRetry, sleep } from './retry.js';
import type { ResolvedRetry } from './topology.js';

const policy: ResolvedRetry = {
  maxAttempts: 5,
  initialDelayMs: 100,
  backoffFactor: 2,
  maxDelayMs: 1000,
  jitter: false,
};

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('retryDelay', () => {
  it('grows by the backoff factor and stops at the cap', () => {
    expect([1, 2, 3, 4, 5, 6].map((attempt) => retryDelay(policy, attempt))).toEqual([
      100, 200, 400, 800, 1000, 1000,
    ]);
  });

  it('randomises each delay between half and all of it with jitter', () => {
    const jittered = { ...policy, jitter: true };
    vi.spyOn(Math, 'random').mockReturnValue(0);
    expect(retryDelay(jittered, 3)).toBe(200);
    vi.spyOn(Math, 'random').mockReturnValue(0.999_999);
    expect(retryDelay(jittered, 3)).toBeCloseTo(400, 2);
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    expect(retryDelay(jittered, 3)).toBe(300);
  });
});

describe('shouldRetry', () => {
  const live = new AbortController().signal;

  it('retries ordinary errors and timeouts, never definition errors or aborted runs', () => {
    expect(shouldRetry(policy, new Error('flaky'), live)).toBe(true);
    expect(shouldRetry(policy, new WeftError('NODE_TIMEOUT', 'slow'), live)).toBe(true);
    expect(shouldRetry(policy, new WeftError('INVALID_UPDATE', 'bad'), live)).toBe(false);
    expect(shouldRetry(policy, new WeftError('GRAPH_INVALID', 'bad'), live)).toBe(false);
    expect(shouldRetry(policy, new Error('flaky'), AbortSignal.abort())).toBe(false);
  });

  it('asks retryOn which errors to retry', () => {
    const onlyRateLimits = { ...policy, retryOn: (error: Error) => error.message.includes('429') };
    expect(shouldRetry(onlyRateLimits, new Error('HTTP 429'), live)).toBe(true);
    expect(shouldRetry(onlyRateLimits, new Error('HTTP 400'), live)).toBe(false);
  });
});

describe('sleep', () => {
  it('resolves after the delay', async () => {
    vi.useFakeTimers();
    let done = false;
    const slept = sleep(500, new AbortController().signal).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(499);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await slept;
    expect(done).toBe(true);
  });

  it('rejects with the abort reason as soon as the signal fires, and at once when it already has', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const slept = sleep(10_000, controller.signal);
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(slept).rejects.toBe(reason);
    expect(vi.getTimerCount()).toBe(0);
    await expect(sleep(1, AbortSignal.abort(reason))).rejects.toBe(reason);
  });
});
