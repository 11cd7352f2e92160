import { describe, expect, it } from 'vitest';
import type { CompiledState } from '../pregel/compiled-state.js';
import { type AnyReducer, appendReducer, sumReducer } from '../state/reducers.js';
import { subgraphUpdate } from './subgraph-update.js';

function state(
  reducers: Record<string, AnyReducer | undefined>,
  keys = Object.keys(reducers),
): CompiledState {
  return { keys, keySet: new Set(keys), reducers, defaults: {}, checks: undefined };
}

const concat = (current: string, update: string): string => current + update;
const parent = state({ log: appendReducer, total: sumReducer, text: undefined, last: undefined });
const child = state({
  log: appendReducer,
  total: sumReducer,
  text: concat,
  last: undefined,
  scratch: undefined,
});

describe('subgraphUpdate', () => {
  it('folds the writes to a key the parent reduces through the subgraph’s reducer (what it added)', () => {
    const writes = [
      ['log', 'a'],
      ['total', 2],
      ['log', ['b', 'c']],
      ['total', 3],
    ] as const;
    const values = { log: ['in', 'a', 'b', 'c'], total: 6 };
    expect(subgraphUpdate(child, parent, { writes, values }, 'sub')).toEqual({
      log: ['a', 'b', 'c'],
      total: 5,
    });
  });

  it('gives a last-value key of the parent the subgraph’s final value, not its last raw write', () => {
    const writes = [
      ['text', '+x'],
      ['last', 'first'],
      ['text', '+y'],
      ['last', 'second'],
    ] as const;
    const values = { text: 'p+x+y', last: 'second' };
    expect(subgraphUpdate(child, parent, { writes, values }, 'sub')).toEqual({
      text: 'p+x+y',
      last: 'second',
    });
  });

  it('leaves out keys only the subgraph has, and keys it did not write', () => {
    const writes = [['scratch', 'notes']] as const;
    const values = { scratch: 'notes', text: 'untouched', log: ['in'] };
    expect(subgraphUpdate(child, parent, { writes, values }, 'sub')).toEqual({});
  });
});
