import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { StateSnapshot } from '../checkpoint/thread-state.js';
import { END, START } from '../vocabulary/constants.js';
import { StateGraph } from './state-graph.js';

const State = z.object({ topic: z.string() });
const Inner = State.extend({ draft: z.string() });
const agent = new StateGraph(Inner)
  .addNode('write', () => ({ draft: 'x' }))
  .addEdge(START, 'write')
  .compile();
const app = new StateGraph(State).addNode('agent', agent).addEdge(START, 'agent').compile();

describe('subgraph state options', () => {
  it('types getState({ subgraphs }) tasks with their namespace and nested snapshot', async () => {
    const state = await app.getState('t', { subgraphs: true });
    expectTypeOf(state?.tasks[0]?.ns).toEqualTypeOf<string | undefined>();
    expectTypeOf(state?.tasks[0]?.state).toEqualTypeOf<StateSnapshot | undefined>();
    // @ts-expect-error — subgraphs is a boolean
    await app.getState('t', { subgraphs: 'yes' });
    await app.getStateHistory('t', { ns: 'agent:1', limit: 2 });
  });

  it('checks asNode and values against the graph without ns, and takes the subgraph’s with ns', async () => {
    await app.updateState('t', { topic: 'a' }, { asNode: 'agent' });
    await app.updateState('t', { topic: 'a' }, { asNode: END });
    // @ts-expect-error — `write` is not a node of the parent graph
    await app.updateState('t', { topic: 'a' }, { asNode: 'write' });
    // @ts-expect-error — `draft` is not a key of the parent's state
    await app.updateState('t', { draft: 'a' });
    await app.updateState('t', { draft: 'a' }, { ns: 'agent:1', asNode: 'write' });
  });
});
