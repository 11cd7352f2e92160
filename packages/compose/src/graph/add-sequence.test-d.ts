import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { MemoryCheckpointer } from '../checkpoint/memory-checkpointer.js';
import { appendReducer } from '../state/reducers.js';
import { Command } from '../vocabulary/command.js';
import { END, START } from '../vocabulary/constants.js';
import type { InferNodes } from './infer.js';
import { StateGraph } from './state-graph.js';

const State = z.object({ text: z.string(), log: z.array(z.string()) });

describe('addSequence', () => {
  it('adds the names of a list of pairs to the node union, with the state typed in each node', () => {
    const app = new StateGraph(State, { reducers: { log: appendReducer } })
      .addNode('first', () => ({}))
      .addSequence([
        ['trim', (s) => ({ text: s.text.trim() })],
        ['log', () => ({ log: 'x' })],
        ['route', () => new Command({ goto: 'first' })],
      ])
      .addEdge(START, 'first')
      .addEdge('first', 'trim')
      .addEdge('route', END)
      .compile();
    expectTypeOf<InferNodes<typeof app>>().toEqualTypeOf<'first' | 'trim' | 'log' | 'route'>();
  });

  it('rejects an edge to a node the sequence did not add, a bad update and an unknown goto', () => {
    const graph = new StateGraph(State).addSequence([['a', () => ({})]]);
    // @ts-expect-error 'b' is not a node
    graph.addEdge('a', 'b');
    new StateGraph(State).addSequence([
      // @ts-expect-error text is a string
      ['a', () => ({ text: 1 })],
    ]);
    new StateGraph(State).addSequence([
      // @ts-expect-error 'nowhere' is not a node added before the sequence
      ['a', () => new Command({ goto: 'nowhere' })],
    ]);
  });
});

describe('bulkUpdateState', () => {
  const app = new StateGraph(State, { reducers: { log: appendReducer } })
    .addNode('a', () => ({}))
    .addEdge(START, 'a')
    .addEdge('a', END)
    .compile({ checkpointer: new MemoryCheckpointer() });

  it('takes the graph’s updates and node names', () => {
    void app.bulkUpdateState('t', [{ updates: [{ values: { log: 'one' }, asNode: 'a' }] }]);
    void app.bulkUpdateState('t', [{ updates: [{ values: null, asNode: END }] }]);
    expectTypeOf(app.bulkUpdateState).returns.toEqualTypeOf<Promise<string>>();
  });

  it('rejects an unknown node and a bad value', () => {
    // @ts-expect-error 'b' is not a node
    void app.bulkUpdateState('t', [{ updates: [{ values: {}, asNode: 'b' }] }]);
    // @ts-expect-error text is a string
    void app.bulkUpdateState('t', [{ updates: [{ values: { text: 1 } }] }]);
  });
});
