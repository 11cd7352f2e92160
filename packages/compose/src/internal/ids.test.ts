import { afterEach, describe, expect, it, vi } from 'vitest';
import { isoNow, sortableId } from './ids.js';

describe('sortableId', () => {
  afterEach(() => vi.useRealTimers());

  it('is unique and sorts in creation order within one millisecond and across many', () => {
    const ids = Array.from({ length: 20_000 }, () => sortableId());
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    for (const id of ids.slice(0, 50)) expect(id).toMatch(/^[0-9a-z]{9}-[0-9a-z]{5}-[0-9a-z]{14}$/);
  });

  it('starts the counter again and draws a new random part when the millisecond changes', () => {
    // Later than every id made so far (ids never go back in time within a process).
    const base = Date.now() + 60_000;
    vi.useFakeTimers({ now: base, toFake: ['Date'] });
    const first = sortableId();
    const second = sortableId();
    vi.setSystemTime(base + 1);
    const third = sortableId();
    expect(second.slice(10, 15)).toBe('00001');
    expect(third.slice(10, 15)).toBe('00000');
    expect(third > second && second > first).toBe(true);
    expect(third.slice(0, 9)).toBe((base + 1).toString(36).padStart(9, '0'));
    // The process part stays, the per-millisecond part is new.
    expect(third.slice(16, 23)).toBe(first.slice(16, 23));
  });

  it('stays unique when the clock goes back', () => {
    const base = Date.now() + 120_000;
    vi.useFakeTimers({ now: base, toFake: ['Date'] });
    const before = sortableId();
    vi.setSystemTime(base - 1_000);
    const after = sortableId();
    expect(after).not.toBe(before);
    expect(after > before).toBe(true);
  });
});

describe('isoNow', () => {
  afterEach(() => vi.useRealTimers());

  it('is the current time as an ISO string, rebuilt when the millisecond changes', () => {
    vi.useFakeTimers({ now: 1_700_000_000_123, toFake: ['Date'] });
    expect(isoNow()).toBe('2023-11-14T22:13:20.123Z');
    vi.setSystemTime(1_700_000_000_124);
    expect(isoNow()).toBe('2023-11-14T22:13:20.124Z');
  });
});
