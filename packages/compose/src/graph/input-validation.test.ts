import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { InputValidationError } from '../errors/input-validation-error.js';
import { WeftError } from '../errors/weft-error.js';
import { appendReducer, sumReducer } from '../state/reducers.js';
import { END, START } from '../vocabulary/constants.js';
import { StateGraph } from './state-graph.js';

const State = z.object({
  name: z.string().min(1),
  count: z.number().int().default(0),
  tags: z.array(z.string()).default([]),
  total: z.number().default(0),
});

function app(onRun: () => void = () => {}) {
  return new StateGraph(State, { reducers: { tags: appendReducer, total: sumReducer } })
    .addNode('run', () => {
      onRun();
      return {};
    })
    .addEdge(START, 'run')
    .addEdge('run', END)
    .compile();
}

async function rejection(promise: Promise<unknown>): Promise<InputValidationError> {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(InputValidationError);
  return error as InputValidationError;
}

describe('run input validation', () => {
  it('rejects bad input with every zod issue listed, and runs nothing', async () => {
    const onRun = vi.fn();
    const onEvent = vi.fn();
    const error = await rejection(
      app(onRun).invoke({ name: '', count: 1.5 } as never, { callbacks: { onEvent } }),
    );
    expect(WeftError.isInstance(error)).toBe(true);
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.issues.map((i) => i.path)).toEqual([['name'], ['count']]);
    expect(error.issues.every((i) => typeof i.code === 'string' && i.message.length > 0)).toBe(true);
    expect(error.message).toContain('name');
    expect(error.message).toContain('count');
    expect(onRun).not.toHaveBeenCalled();
    expect(onEvent).not.toHaveBeenCalled();
  });

  it('rejects keys the state does not have', async () => {
    const error = await rejection(app().invoke({ name: 'x', nmae: 'y' } as never));
    expect(error.issues[0]?.code).toBe('unrecognized_keys');
  });

  it('accepts a partial state, reducer update types and fills schema defaults', async () => {
    expect(await app().invoke({})).toEqual({ count: 0, tags: [], total: 0 });
    expect(await app().invoke({ name: 'n', tags: 'one', total: 2 })).toEqual({
      name: 'n',
      count: 0,
      tags: ['one'],
      total: 2,
    });
    await rejection(app().invoke({ tags: 3 } as never));
  });

  it('uses the input schema given to the builder', async () => {
    const strict = new StateGraph(State, { input: z.object({ name: z.string() }).strict() })
      .addNode('greet', (s) => ({ name: `hello ${s.name}` }))
      .addEdge(START, 'greet')
      .addEdge('greet', END)
      .compile();
    expect((await strict.invoke({ name: 'ada' })).name).toBe('hello ada');
    await rejection(strict.invoke({} as never));
  });

  it('validates each batch input on its own run', async () => {
    const onRun = vi.fn();
    await rejection(app(onRun).batch([{ name: 'ok' }, { name: 1 } as never], { batchConcurrency: 1 }));
    expect(onRun).toHaveBeenCalledTimes(1);
  });

  it('rejects bad input to stream on the first read, and runs nothing', async () => {
    const onRun = vi.fn();
    const stream = app(onRun).stream({ name: 2 } as never, { mode: 'updates' });
    await expect(stream.next()).rejects.toBeInstanceOf(InputValidationError);
    expect(onRun).not.toHaveBeenCalled();
  });
});
