import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from './checkpointer.js';
import { jsonEqual, metadataMatches } from './metadata-filter.js';

describe('jsonEqual', () => {
  it('is true for a value and its JSON copy, whatever the key order', () => {
    fc.assert(
      // fast-check's JsonValue allows readonly arrays; ours is structurally the same JSON.
      fc.property(fc.jsonValue(), (generated) => {
        const value = generated as JsonValue;
        expect(jsonEqual(value, JSON.parse(JSON.stringify(value)) as JsonValue)).toBe(true);
      }),
    );
    expect(jsonEqual({ a: 1, b: [2, { c: 3 }] }, { b: [2, { c: 3 }], a: 1 })).toBe(true);
  });

  it('tells apart values that differ anywhere', () => {
    expect(jsonEqual({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(jsonEqual({ a: null }, { b: null })).toBe(false);
    expect(jsonEqual([], {})).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
    expect(jsonEqual('1', 1)).toBe(false);
    expect(jsonEqual(undefined, undefined)).toBe(false);
  });
});

describe('metadataMatches', () => {
  it('matches top-level keys by equality, not subset', () => {
    const metadata = { source: 'loop', user: { id: 1, role: 'x' }, step: null };
    expect(metadataMatches(metadata, undefined)).toBe(true);
    expect(metadataMatches(metadata, {})).toBe(true);
    expect(metadataMatches(metadata, { source: 'loop', step: null })).toBe(true);
    expect(metadataMatches(metadata, { user: { role: 'x', id: 1 } })).toBe(true);
    expect(metadataMatches(metadata, { user: { id: 1 } })).toBe(false);
    expect(metadataMatches(metadata, { missing: null })).toBe(false);
  });
});
