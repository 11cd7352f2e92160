import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  appendReducer,
  END,
  MemoryCheckpointer,
  mergeReducer,
  NodeError,
  Send,
  START,
  StateGraph,
  StateMutationError,
  sumReducer,
} from '../src/index.js';

const State = z.object({ items: z.array(z.number()), count: z.number() });

/** A node that pushes onto the state it was given: the bug of the issue (memory [1,2], checkpoint [1]). */
function pusher(options: { freezeState?: boolean } = {}) {
  const saver = new MemoryCheckpointer();
  const app = new StateGraph(State)
    .addNode('push', (state) => {
      state.items.push(2);
      return { count: state.count + 1 };
    })
    .addEdge(START, 'push')
    .addEdge('push', END)
    .compile({ checkpointer: saver, ...options });
  return { app, saver };
}

async function failure(run: Promise<unknown>): Promise<NodeError> {
  const error = await run.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(NodeError);
  return error as NodeError;
}

describe('state handed to nodes is frozen in development', () => {
  it('an in-place push fails with a StateMutationError naming the node, not a silent divergence', async () => {
    const { app } = pusher();
    const error = await failure(app.invoke({ items: [1], count: 0 }, { threadId: 't' }));
    expect(error.node).toBe('push');
    expect(error.cause).toBeInstanceOf(StateMutationError);
    expect(error.cause).toMatchObject({ code: 'STATE_MUTATED', node: 'push' });
    expect((error.cause as Error).message).toMatch(/node "push" changed a frozen value in place/);
  });

  it('names the key of an assignment to a top-level key, and is never retried', async () => {
    let attempts = 0;
    const app = new StateGraph(State)
      .addNode(
        'set',
        (state) => {
          attempts += 1;
          (state as { count: number }).count = 5;
          return {};
        },
        { retry: { maxAttempts: 3, initialDelayMs: 1 } },
      )
      .addEdge(START, 'set')
      .addEdge('set', END)
      .compile();
    const error = await failure(app.invoke({ items: [], count: 0 }));
    expect(error.cause).toMatchObject({ node: 'set', key: 'count' });
    expect(attempts).toBe(1);
  });

  it('covers Maps and Sets in the state, Send arguments and subgraph input', async () => {
    const Bag = z.object({ tags: z.set(z.string()), total: z.number().default(0) });
    const tagger = new StateGraph(Bag)
      .addNode('tag', (state) => {
        state.tags.add('x');
        return {};
      })
      .addEdge(START, 'tag')
      .addEdge('tag', END)
      .compile();
    expect((await failure(tagger.invoke({ tags: new Set(['a']) }))).cause).toBeInstanceOf(StateMutationError);

    const Fan = z.object({ jobs: z.array(z.number()), done: z.array(z.number()).default([]) });
    const fan = new StateGraph(Fan, { reducers: { done: appendReducer } })
      .addNode('work', (job: { n: number[] }) => {
        job.n.push(0);
        return { done: job.n };
      })
      .addConditionalEdges(START, (state) => state.jobs.map((n) => new Send('work', { n: [n] })))
      .addEdge('work', END)
      .compile();
    expect((await failure(fan.invoke({ jobs: [1] }))).cause).toBeInstanceOf(StateMutationError);

    const inner = pusher().app;
    const outer = new StateGraph(State)
      .addNode('inner', inner)
      .addEdge(START, 'inner')
      .addEdge('inner', END)
      .compile();
    const nested = await failure(outer.invoke({ items: [1], count: 0 }));
    expect(nested.path).toEqual(['inner', 'push']);
    expect(nested.cause).toBeInstanceOf(StateMutationError);
  });

  it('is off with freezeState: false (and in production): the old silent divergence', async () => {
    const { app, saver } = pusher({ freezeState: false });
    const output = await app.invoke({ items: [1], count: 0 }, { threadId: 't' });
    expect(output.items).toEqual([1, 2]);
    // The checkpoint never saw the push: the reason freezing is on by default outside production.
    const restored = await pusher({ freezeState: false })
      .app.withOptions({ checkpointer: saver })
      .getState('t');
    expect(restored?.values.items).toEqual([1]);
  });

  it('input is copied by schemas that parse it, and frozen where the schema keeps it (z.unknown())', async () => {
    const Input = z.object({ items: z.array(z.number()), data: z.unknown() });
    const app = new StateGraph(Input)
      .addNode('read', (state) => ({ items: [...state.items, 0] }))
      .addEdge(START, 'read')
      .addEdge('read', END)
      .compile();
    const mine = [1];
    const blob = { seen: [1] };
    await app.invoke({ items: mine, data: blob });
    // z.array made a copy for the state: the caller's array is untouched and still theirs to change.
    expect(Object.isFrozen(mine)).toBe(false);
    // z.unknown() keeps the caller's object as state, so it was frozen with the state.
    expect(Object.isFrozen(blob.seen)).toBe(true);
    expect(() => blob.seen.push(2)).toThrow(TypeError);
  });

  it('keeps values reused across steps and reducers that return the same array working', async () => {
    const keep = (current: number[], update: number[]) =>
      update.length === 0 ? current : [...current, ...update];
    const app = new StateGraph(State, { reducers: { items: keep } })
      .addNode('same', (state) => ({ items: [], count: state.count + 1 }))
      .addEdge(START, 'same')
      .addConditionalEdges('same', (state) => (state.count < 3 ? 'same' : END))
      .compile({ checkpointer: new MemoryCheckpointer() });
    const output = await app.invoke({ items: [1], count: 0 }, { threadId: 't' });
    expect(output).toEqual({ items: [1], count: 3 });
  });
});

describe('ctx.produce: draft-style updates through the reducers', () => {
  const Draft = z.object({
    items: z.array(z.number()),
    total: z.number(),
    scores: z.record(z.string(), z.number()),
    note: z.string(),
  });
  const reducers = { items: appendReducer, total: sumReducer, scores: mergeReducer };

  it('turns mutations of a draft into an ordinary update, checkpointed like any other', async () => {
    const saver = new MemoryCheckpointer();
    let update: unknown;
    const app = new StateGraph(Draft, { reducers })
      .addNode('edit', (state, ctx) => {
        update = ctx.produce(state, (draft) => {
          draft.items.push(2);
          draft.total += 5;
          draft.scores.b = 2;
          draft.note = 'edited';
        });
        return update as Partial<typeof state>;
      })
      .addEdge(START, 'edit')
      .addEdge('edit', END)
      .compile({ checkpointer: saver });
    const input = { items: [1], total: 1, scores: { a: 1 }, note: '' };
    const output = await app.invoke(input, { threadId: 't' });
    expect(update).toEqual({ items: [2], total: 5, scores: { b: 2 }, note: 'edited' });
    const expected = { items: [1, 2], total: 6, scores: { a: 1, b: 2 }, note: 'edited' };
    expect(output).toEqual(expected);
    expect((await app.getState('t'))?.values).toEqual(expected);
  });

  it('refuses a change no update can say, naming the node and key', async () => {
    const app = new StateGraph(Draft, { reducers })
      .addNode('drop', (state, ctx) =>
        ctx.produce(state, (draft) => {
          draft.items.shift();
        }),
      )
      .addEdge(START, 'drop')
      .addEdge('drop', END)
      .compile();
    const error = await failure(app.invoke({ items: [1], total: 0, scores: {}, note: '' }));
    expect(error.cause).toMatchObject({ code: 'INVALID_UPDATE' });
    expect((error.cause as Error).message).toMatch(/node "drop" changed state key "items".*append reducer/);
  });
});
