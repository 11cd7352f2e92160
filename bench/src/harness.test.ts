import { describe, expect, it } from 'vitest';
import { rotated, timeBoxed } from './harness.ts';

describe('rotated', () => {
  it('starts each round one item later, wrapping around', () => {
    const order = ['a', 'b', 'c'];
    expect([0, 1, 2, 3].map((round) => rotated(order, round).join(''))).toEqual(['abc', 'bca', 'cab', 'abc']);
  });

  it('leaves an empty list empty', () => {
    expect(rotated([], 5)).toEqual([]);
  });
});

describe('timeBoxed', () => {
  it('runs once when no minimum is asked and keeps the result', async () => {
    let calls = 0;
    const timed = await timeBoxed(async () => ++calls, 0);
    expect(timed.runs).toBe(1);
    expect(timed.results).toEqual([1]);
    expect(timed.msPerRun).toBeGreaterThanOrEqual(0);
  });

  it('repeats until the minimum has passed, keeping every result for the check', async () => {
    let calls = 0;
    const started = performance.now();
    const timed = await timeBoxed(async () => ++calls, 5);
    expect(performance.now() - started).toBeGreaterThanOrEqual(5);
    expect(timed.results).toEqual(Array.from({ length: calls }, (_, i) => i + 1));
  });
});
