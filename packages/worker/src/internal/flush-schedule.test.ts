import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FlushSchedule } from './flush-schedule.js';

describe('FlushSchedule', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('calls every requested write once, together, when the first request is due', () => {
    const schedule = new FlushSchedule(5);
    const calls: string[] = [];
    const a = () => void calls.push('a');
    const b = () => void calls.push('b');
    schedule.request(a);
    vi.advanceTimersByTime(3);
    schedule.request(b);
    schedule.request(a);
    expect(calls).toEqual([]);
    vi.advanceTimersByTime(2);
    expect(calls).toEqual(['a', 'b']);
    vi.advanceTimersByTime(100);
    expect(calls).toEqual(['a', 'b']);
  });

  it('skips a cancelled request and arms again after firing', () => {
    const schedule = new FlushSchedule(5);
    const calls: string[] = [];
    const a = () => void calls.push('a');
    const b = () => void calls.push('b');
    schedule.request(a);
    schedule.request(b);
    schedule.cancel(a);
    vi.advanceTimersByTime(5);
    expect(calls).toEqual(['b']);
    schedule.request(a);
    vi.advanceTimersByTime(5);
    expect(calls).toEqual(['b', 'a']);
  });
});
