import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { appendReducer } from '../state/reducers.js';
import { END, START } from '../vocabulary/constants.js';
import { Graph } from './graph.js';
import type { InferInput, InferNodes, InferOutput, InferState, InferUpdate } from './infer.js';
import { StateGraph } from './state-graph.js';

const State = z.object({ topic: z.string(), notes: z.array(z.string()).default([]) });
type State = z.infer<typeof State>;

const stateApp = new StateGraph(State, { reducers: { notes: appendReducer } })
  .addNode('research', () => ({ notes: 'found' }))
  .addNode('write', (s) => ({ topic: s.topic.trim() }))
  .addEdge(START, 'research')
  .addEdge('research', 'write')
  .addEdge('write', END)
  .compile();

const flowApp = new Graph<string, number>()
  .addNode('length', (text: string) => text.length)
  .addEdge(START, 'length')
  .addEdge('length', END)
  .compile();

type Update = { topic?: string | undefined; notes?: string | readonly string[] | undefined };

describe('Infer* helpers', () => {
  it('InferState: the state of a state graph', () => {
    expectTypeOf<InferState<typeof stateApp>>().toEqualTypeOf<State>();
    expectTypeOf<InferState<typeof stateApp>>().not.toEqualTypeOf<{ topic: string }>();
  });

  it('InferInput: a partial update for state graphs, the input type for dataflow graphs', () => {
    expectTypeOf<InferInput<typeof stateApp>>().toEqualTypeOf<Update>();
    expectTypeOf<InferInput<typeof flowApp>>().toEqualTypeOf<string>();
    expectTypeOf<InferInput<typeof flowApp>>().not.toEqualTypeOf<number>();
  });

  it('InferOutput: the state, or the dataflow output', () => {
    expectTypeOf<InferOutput<typeof stateApp>>().toEqualTypeOf<State>();
    expectTypeOf<InferOutput<typeof flowApp>>().toEqualTypeOf<number>();
    expectTypeOf<InferOutput<typeof flowApp>>().not.toEqualTypeOf<string>();
  });

  it('InferNodes and InferUpdate', () => {
    expectTypeOf<InferNodes<typeof stateApp>>().toEqualTypeOf<'research' | 'write'>();
    expectTypeOf<InferNodes<typeof flowApp>>().toEqualTypeOf<'length'>();
    expectTypeOf<InferUpdate<typeof stateApp>>().toEqualTypeOf<Update>();
  });

  it('give never for what is not a compiled graph', () => {
    expectTypeOf<InferState<{ invoke(): void }>>().toBeNever();
    expectTypeOf<InferNodes<string>>().toBeNever();
  });

  it('match what invoke takes and returns', async () => {
    const state: InferOutput<typeof stateApp> = await stateApp.invoke({ topic: 'x' } satisfies InferInput<
      typeof stateApp
    >);
    expectTypeOf(state.notes).toEqualTypeOf<string[]>();
    // @ts-expect-error topic is a string
    const bad: InferInput<typeof stateApp> = { topic: 1 };
    void bad;
  });
});
