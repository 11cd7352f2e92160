import { describe, expect, it } from 'vitest';
import { matchValue } from './matchers.js';

describe('matchValue', () => {
  it('compares primitives exactly and objects partially', () => {
    expect(matchValue(1, 1)).toEqual({ ok: true });
    expect(matchValue({ a: 1 }, { a: 1, extra: true })).toEqual({ ok: true });
    expect(matchValue({ a: 1 }, { a: 2 })).toEqual({ ok: false, path: '$.a', reason: 'expected 1, got 2' });
    expect(matchValue({ a: 1 }, {})).toEqual({ ok: false, path: '$.a', reason: 'missing' });
    expect(matchValue([1, 2], [1, 2, 3])).toMatchObject({ ok: false, reason: 'expected 2 items, got 3' });
  });

  it('applies $ matchers', () => {
    expect(matchValue({ city: { $regex: '^par', flags: 'i' } }, { city: 'Paris' }).ok).toBe(true);
    expect(matchValue({ city: { $regex: '^par' } }, { city: 'Paris' }).ok).toBe(false);
    expect(matchValue({ q: { $contains: 'weather' } }, { q: 'the weather today' }).ok).toBe(true);
    expect(matchValue({ tags: { $contains: { id: 2 } } }, { tags: [{ id: 1 }, { id: 2, x: 1 }] }).ok).toBe(
      true,
    );
    expect(matchValue({ n: { $gte: 3 } }, { n: 2 })).toMatchObject({ ok: false, reason: '2 is not >= 3' });
    expect(matchValue({ n: { $lte: 3 } }, { n: 3 }).ok).toBe(true);
    expect(matchValue({ u: { $oneOf: ['C', 'F'] } }, { u: 'K' }).ok).toBe(false);
    expect(matchValue({ id: { $any: true } }, { id: 'x' }).ok).toBe(true);
    expect(matchValue({ id: { $any: true } }, {}).ok).toBe(false);
  });

  it('treats an object with a $ key and other keys as a plain object', () => {
    expect(matchValue({ $regex: 'a', other: 1 }, { $regex: 'a', other: 1 }).ok).toBe(true);
  });
});
