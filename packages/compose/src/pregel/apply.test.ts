import { describe, expect, it } from 'vitest';
import { WeftError } from '../errors/weft-error.js';
import { WriteConflictError } from '../errors/write-conflict-error.js';
import { type AnyReducer, appendReducer, mergeReducer, sumReducer } from '../state/reducers.js';
import { Command } from '../vocabulary/command.js';
import { applyStateWrites } from './apply.js';
import type { CompiledState } from './compiled-state.js';
import { SubgraphWrites } from './subgraph-writes.js';
import { TaskPaused } from './task.js';

function stateOf(keys: readonly string[], reducers: Record<string, AnyReducer> = {}): CompiledState {
  return { keys, keySet: new Set(keys), reducers, defaults: {}, checks: undefined };
}

const state = stateOf(['last', 'log', 'total', 'meta'], {
  log: appendReducer,
  total: sumReducer,
  meta: mergeReducer,
});

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('applyStateWrites', () => {
  it('writes last-value keys and routes reducer keys through their reducers', () => {
    const values = { last: 'a', log: ['x'], total: 1, meta: { a: 1 } };
    const applied = applyStateWrites(
      state,
      values,
      ['n'],
      [{ last: 'b', log: 'y', total: 2, meta: { b: 2 } }],
    );
    expect(applied.values).toEqual({ last: 'b', log: ['x', 'y'], total: 3, meta: { a: 1, b: 2 } });
    expect(applied.changed).toEqual(['last', 'log', 'total', 'meta']);
  });

  it('is pure: the input values and their arrays are left untouched', () => {
    const values = { last: 'a', log: ['x'], total: 1 };
    const snapshot = structuredClone(values);
    const applied = applyStateWrites(state, values, ['n', 'm'], [{ log: 'y' }, { total: 5, last: 'z' }]);
    expect(values).toEqual(snapshot);
    expect(applied.values).not.toBe(values);
  });

  it('returns the same values object when nothing was written', () => {
    const values = { last: 'a' };
    const applied = applyStateWrites(state, values, ['a', 'b', 'c'], [undefined, null, new Command({})]);
    expect(applied.values).toBe(values);
    expect(applied.changed).toEqual([]);
  });

  it('returns the same values object when the tasks returned empty updates (no copy of the state)', () => {
    const values = { last: 'a', log: ['x'] };
    const applied = applyStateWrites(state, values, ['a', 'b'], [{}, new Command({ update: {} })]);
    expect(applied.values).toBe(values);
    expect(applied.changed).toEqual([]);
    expect(applied.updates).toEqual([{}, {}]);
  });

  it('applies reducer writes in task order, whatever order the tasks finished in', () => {
    const outputs = [{ log: 'first' }, { log: ['second', 'third'] }, { log: 'fourth' }];
    const applied = applyStateWrites(state, { log: [] }, ['a', 'b', 'c'], outputs);
    expect(applied.values.log).toEqual(['first', 'second', 'third', 'fourth']);
  });

  it('sums and merges several writes in one step', () => {
    const applied = applyStateWrites(
      state,
      {},
      ['a', 'b', 'c'],
      [
        { total: 1, meta: { x: 1 } },
        { total: 2, meta: { y: 2 } },
        { total: 3, meta: { x: 3 } },
      ],
    );
    expect(applied.values).toEqual({ total: 6, meta: { x: 3, y: 2 } });
  });

  it('throws WriteConflictError naming both nodes when two tasks write one last-value key', () => {
    const error = thrown(() =>
      applyStateWrites(state, {}, ['alpha', 'beta', 'gamma'], [{ log: 'ok' }, { last: 1 }, { last: 2 }]),
    );
    expect(error).toBeInstanceOf(WriteConflictError);
    expect(error).toMatchObject({ code: 'WRITE_CONFLICT', key: 'last', nodes: ['beta', 'gamma'] });
    expect((error as Error).message).toContain('"beta" and "gamma"');
  });

  it('reports a conflict between two Send tasks of the same node', () => {
    const error = thrown(() => applyStateWrites(state, {}, ['map', 'map'], [{ last: 1 }, { last: 1 }]));
    expect(error).toMatchObject({ key: 'last', nodes: ['map', 'map'] });
  });

  it('lets one task write a key while another task writes other keys', () => {
    const applied = applyStateWrites(state, {}, ['a', 'b'], [{ last: 1 }, { total: 1 }]);
    expect(applied.values).toEqual({ last: 1, total: 1 });
  });

  it('rejects keys outside the schema and non-object updates', () => {
    const unknownKey = thrown(() => applyStateWrites(state, {}, ['n'], [{ lats: 1 }]));
    expect(unknownKey).toMatchObject({ code: 'INVALID_UPDATE' });
    expect((unknownKey as Error).message).toContain('"lats"');
    for (const bad of [[1], 'text', 3, new Map()]) {
      const error = thrown(() => applyStateWrites(state, {}, ['n'], [bad]));
      expect(WeftError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: 'INVALID_UPDATE' });
    }
  });

  it('takes the update and the gotos of a Command', () => {
    const applied = applyStateWrites(
      state,
      {},
      ['a', 'b'],
      [new Command({ update: { last: 1 }, goto: 'next' }), { total: 2 }],
    );
    expect(applied.values).toEqual({ last: 1, total: 2 });
    expect(applied.gotos).toEqual([['next'], undefined]);
    expect(applied.updates).toEqual([{ last: 1 }, { total: 2 }]);
  });

  it('hands back the outputs list itself as the updates when every task returned a plain object', () => {
    const outputs = [{ total: 1 }, { total: 2 }, undefined];
    const applied = applyStateWrites(state, { total: 0 }, ['a', 'b', 'c'], outputs);
    expect(applied.updates).toBe(outputs);
    expect(applied.gotos).toEqual([]);
    expect(applied.values).toEqual({ total: 3 });
  });

  it('keeps updates aligned with the tasks when a Command or a pause comes after plain outputs', () => {
    const outputs = [
      { total: 1 },
      { last: 'x' },
      new Command({ update: { total: 2 }, goto: 'next' }),
      new TaskPaused([]),
      { total: 3 },
    ];
    const applied = applyStateWrites(state, {}, ['a', 'b', 'c', 'd', 'e'], outputs);
    expect(applied.updates).toEqual([{ total: 1 }, { last: 'x' }, { total: 2 }, undefined, { total: 3 }]);
    expect(applied.updates).toHaveLength(5);
    expect(applied.gotos[2]).toEqual(['next']);
    expect([0, 1, 3, 4].map((i) => applied.gotos[i])).toEqual([undefined, undefined, undefined, undefined]);
    expect(outputs[2]).toBeInstanceOf(Command);
  });

  it('skips paused tasks', () => {
    const applied = applyStateWrites(state, {}, ['a', 'b'], [new TaskPaused([]), { last: 1 }]);
    expect(applied.values).toEqual({ last: 1 });
    expect(applied.updates[0]).toBeUndefined();
  });

  it('applies a subgraph’s writes one by one through the reducers, ignoring keys it does not have', () => {
    const writes = new SubgraphWrites([
      ['log', 'a'],
      ['log', 'b'],
      ['total', 2],
      ['last', 'first'],
      ['last', 'second'],
      ['childOnly', 1],
    ]);
    const applied = applyStateWrites(state, { log: ['in'], total: 1 }, ['sub'], [writes]);
    expect(applied.values).toEqual({ log: ['in', 'a', 'b'], total: 3, last: 'second' });
  });

  it('still detects a conflict between a subgraph and a sibling writing one last-value key', () => {
    const error = thrown(() =>
      applyStateWrites(state, {}, ['sub', 'other'], [new SubgraphWrites([['last', 1]]), { last: 2 }]),
    );
    expect(error).toMatchObject({ key: 'last', nodes: ['sub', 'other'] });
  });
});
