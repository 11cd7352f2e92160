import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { appendReducer, mergeReducer, sumReducer } from './reducers.js';
import { builtUpdateSchema, loadUpdateSchema, updateSchemaOf } from './update-schema.js';

describe('ready reducers', () => {
  it('appendReducer appends an item or every item of a list, treating a missing value as []', () => {
    expect(appendReducer(undefined, 'a')).toEqual(['a']);
    expect(appendReducer(['a'], ['b', 'c'])).toEqual(['a', 'b', 'c']);
    expect(appendReducer(['a'], [['nested']])).toEqual(['a', ['nested']]);
    const current = ['a'];
    appendReducer(current, 'b');
    expect(current).toEqual(['a']);
  });

  it('mergeReducer merges shallowly without touching the current object', () => {
    const current = { a: 1, nested: { x: 1 } };
    expect(mergeReducer(current, { nested: { y: 2 } })).toEqual({ a: 1, nested: { y: 2 } });
    expect(mergeReducer(undefined, { b: 2 })).toEqual({ b: 2 });
    expect(current).toEqual({ a: 1, nested: { x: 1 } });
  });

  it('sumReducer adds, treating a missing value as 0', () => {
    expect(sumReducer(undefined, 2)).toBe(2);
    expect(sumReducer(2, -5)).toBe(-3);
  });

  it('carry a kind tag that the input schema reads', () => {
    expect([appendReducer.reducerKind, mergeReducer.reducerKind, sumReducer.reducerKind]).toEqual([
      'append',
      'merge',
      'sum',
    ]);
  });
});

describe('updateSchemaOf', () => {
  const schema = z.object({
    name: z.string(),
    tags: z.array(z.string()).default([]),
    total: z.number(),
    meta: z.object({ a: z.number(), b: z.string() }),
    custom: z.number(),
  });
  const input = updateSchemaOf(
    {
      schema,
      reducers: {
        tags: appendReducer,
        total: sumReducer,
        meta: mergeReducer,
        custom: (current: number, update: string) => current + update.length,
      },
    },
    z,
  );

  it('makes every key optional and rejects unknown keys', () => {
    expect(input.safeParse({}).success).toBe(true);
    expect(input.safeParse({ name: 'x' }).success).toBe(true);
    expect(input.safeParse({ nmae: 'x' }).success).toBe(false);
    expect(input.safeParse({ name: 1 }).success).toBe(false);
  });

  it('is built once per state spec, and is the schema a graph checks its input against', async () => {
    const state = { schema, reducers: {} };
    expect(builtUpdateSchema(state)).toBeUndefined();
    const loaded = await loadUpdateSchema(state);
    expect(builtUpdateSchema(state)).toBe(loaded);
    expect(updateSchemaOf(state, z)).toBe(loaded);
  });

  it('takes each reducer’s update type', () => {
    expect(input.safeParse({ tags: 'one' }).success).toBe(true);
    expect(input.safeParse({ tags: ['one', 'two'] }).success).toBe(true);
    expect(input.safeParse({ tags: 1 }).success).toBe(false);
    expect(input.safeParse({ total: 3 }).success).toBe(true);
    expect(input.safeParse({ total: '3' }).success).toBe(false);
    expect(input.safeParse({ meta: { a: 1 } }).success).toBe(true);
    expect(input.safeParse({ meta: { a: 'x' } }).success).toBe(false);
    expect(input.safeParse({ custom: 'anything goes' }).success).toBe(true);
  });
});
