import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StateUpdateError } from '../errors/state-update-error.js';
import { StateGraph } from '../graph/state-graph.js';
import { END, START } from '../vocabulary/constants.js';
import { appendReducer, mergeReducer, sumReducer } from './reducers.js';

const State = z.object({
  name: z.string().min(2),
  age: z
    .number()
    .int()
    .refine((n) => n >= 0, 'age must not be negative'),
  tags: z.array(z.string().max(5)).default([]),
  meta: z.object({ a: z.number(), b: z.string() }).default({ a: 0, b: '' }),
  total: z.number().default(0),
  custom: z.string().default(''),
});
const reducers = {
  tags: appendReducer,
  meta: mergeReducer,
  total: sumReducer,
  custom: (current: string, update: number) => `${current}${update}`,
};

function graphWriting(update: Record<string, unknown>, checkUpdates?: boolean) {
  return new StateGraph(State, { reducers })
    .addNode('writer', () => update as never)
    .addEdge(START, 'writer')
    .addEdge('writer', END)
    .compile(checkUpdates === undefined ? {} : { checkUpdates });
}

const input = { name: 'ok', age: 1 };

describe('node updates are checked against the state schema', () => {
  it('fails a write its field rejects, refinements included, naming the node and the key', async () => {
    const error = await graphWriting({ age: -1 })
      .invoke(input)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StateUpdateError);
    expect(error).toMatchObject({ code: 'INVALID_UPDATE', node: 'writer', key: 'age' });
    expect((error as StateUpdateError).issues[0]?.message).toBe('age must not be negative');
    expect((error as Error).message).toContain('node "writer" wrote "age", which fails the state schema');
    await expect(graphWriting({ name: 'x' }).invoke(input)).rejects.toMatchObject({ key: 'name' });
    await expect(graphWriting({ age: 1.5 }).invoke(input)).rejects.toMatchObject({ key: 'age' });
  });

  it('checks reducer keys against the reducer’s update: an item or a list, a partial object, a number', async () => {
    await expect(graphWriting({ tags: 'short' }).invoke(input)).resolves.toMatchObject({ tags: ['short'] });
    await expect(graphWriting({ tags: ['a', 'toolong'] }).invoke(input)).rejects.toMatchObject({
      key: 'tags',
      issues: [expect.objectContaining({ path: [1] })],
    });
    await expect(graphWriting({ tags: 'toolong' }).invoke(input)).rejects.toMatchObject({ key: 'tags' });
    await expect(graphWriting({ meta: { b: 'x' } }).invoke(input)).resolves.toMatchObject({
      meta: { a: 0, b: 'x' },
    });
    await expect(graphWriting({ meta: { a: 'x' } }).invoke(input)).rejects.toMatchObject({ key: 'meta' });
    await expect(graphWriting({ total: '1' }).invoke(input)).rejects.toMatchObject({ key: 'total' });
    await expect(graphWriting({ custom: 7 }).invoke(input)).resolves.toMatchObject({ custom: '7' });
  });

  it('keeps nothing of the failed step', async () => {
    const app = new StateGraph(State, { reducers })
      .addNode('good', () => ({ name: 'fine' }))
      .addNode('bad', () => ({ age: -5 }))
      .addEdge(START, 'good')
      .addEdge(START, 'bad')
      .addEdge(['good', 'bad'], END)
      .compile();
    await expect(app.invoke(input)).rejects.toMatchObject({ node: 'bad', key: 'age' });
  });

  it('leaves a key whose schema transforms unchecked (it holds the transform’s output)', async () => {
    const app = new StateGraph(z.object({ size: z.string().transform((text) => text.length) }))
      .addNode('grow', (state) => ({ size: state.size + 1 }))
      .addEdge(START, 'grow')
      .addEdge('grow', END)
      .compile();
    expect(await app.invoke({ size: 'abc' as unknown as number })).toEqual({ size: 4 });
  });

  it('is switched off with compile({ checkUpdates: false })', async () => {
    await expect(graphWriting({ age: -1 }, false).invoke(input)).resolves.toMatchObject({ age: -1 });
  });
});
