import { nestedScope } from '@weft/compose';
import { expect, it } from 'vitest';
import { outerScope, scopedKey } from './path-key.js';

it('finds the scope a nested run started in', () => {
  const inner = nestedScope(nestedScope(undefined, '3:tools:0', 'call_1'), '1:sub:0', undefined);
  expect(outerScope(inner, '1:sub:0', undefined)).toBe('/3:tools:0#call_1');
  expect(outerScope('/3:tools:0#call_1', '3:tools:0', 'call_1')).toBeUndefined();
  expect(outerScope(undefined, '3:tools:0', 'call_1')).toBeUndefined();
});

it('keys the same path and step apart in two scopes', () => {
  expect(scopedKey('/t#a', ['tools', 'model'], 1)).not.toBe(scopedKey('/t#b', ['tools', 'model'], 1));
  expect(scopedKey(undefined, [], 0)).toBe(scopedKey(undefined, [], 0));
});
