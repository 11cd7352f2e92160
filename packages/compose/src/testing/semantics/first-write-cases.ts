import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StateGraph } from '../../graph/state-graph.js';
import { END, START } from '../../vocabulary/constants.js';
import { newThread, type StoreOf } from './threads.js';

/** A key without a default whose reducer cannot take `undefined` (`concat`, `+`). */
function concatGraph(store: StoreOf) {
  const State = z.object({ items: z.array(z.string()).optional(), total: z.number().optional() });
  return new StateGraph(State, {
    reducers: {
      items: (current: string[], update: string[]) => current.concat(update),
      total: (current: number, update: number) => current + update,
    },
  })
    .addNode('one', () => ({ items: ['a'], total: 2 }))
    .addNode('two', () => ({ items: ['b'], total: 3 }))
    .addEdge(START, 'one')
    .addEdge('one', 'two')
    .addEdge('two', END)
    .compile({ checkpointer: store() });
}

/** Bullet 1: the first write to a key that holds no value sets it; the reducer sees a value after that. */
export function describeFirstWriteCases(store: StoreOf): void {
  describe('reducer first write', () => {
    it('sets a key that holds no value without calling its reducer, then reduces', async () => {
      const app = concatGraph(store);
      const threadId = newThread('first-write');
      expect(await app.invoke({}, { threadId })).toEqual({ items: ['a', 'b'], total: 5 });
      // Rebuilt from the stored writes, the state is the same.
      expect((await app.getState(threadId))?.values).toEqual({ items: ['a', 'b'], total: 5 });
      const history = await app.getStateHistory(threadId);
      expect(history.map((h) => h.values.total)).toEqual([5, 2, undefined]);
    });

    it('the run input is a first write too, and a later turn reduces onto the stored value', async () => {
      const app = concatGraph(store);
      const threadId = newThread('first-write-input');
      expect(await app.invoke({ items: ['in'], total: 1 }, { threadId })).toEqual({
        items: ['in', 'a', 'b'],
        total: 6,
      });
      expect(await app.invoke({ total: 10 }, { threadId })).toEqual({
        items: ['in', 'a', 'b', 'a', 'b'],
        total: 21,
      });
    });

    it('a reducer that throws fails the run with a ReducerError naming node, key and checkpoint', async () => {
      const State = z.object({ n: z.number().default(0) });
      const app = new StateGraph(State, {
        reducers: {
          n: (current: number, update: number) => {
            if (update < 0) throw new Error('negative');
            return current + update;
          },
        },
      })
        .addNode('ok', () => ({ n: 1 }))
        .addNode('bad', () => ({ n: -1 }))
        .addEdge(START, 'ok')
        .addEdge('ok', 'bad')
        .addEdge('bad', END)
        .compile({ checkpointer: store() });
      const threadId = newThread('reducer-throws');
      const error = await app.invoke({}, { threadId }).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      const latest = await app.getState(threadId);
      expect(error).toMatchObject({
        name: 'ReducerError',
        code: 'REDUCER_FAILED',
        node: 'bad',
        key: 'n',
        checkpointId: latest?.checkpointId,
      });
      expect((error as Error).message).toContain('"bad"');
      expect((error as Error).message).toContain('"n"');
      expect((error as Error).message).toContain(latest?.checkpointId as string);
      expect((error as { cause: Error }).cause.message).toBe('negative');
    });
  });
}
