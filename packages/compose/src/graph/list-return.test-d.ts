import { describe, it } from 'vitest';
import { z } from 'zod';
import { appendReducer } from '../state/reducers.js';
import { Command } from '../vocabulary/command.js';
import { END, START } from '../vocabulary/constants.js';
import { StateGraph } from './state-graph.js';

const State = z.object({ log: z.array(z.string()), count: z.number() });

describe('a node returning a list of updates and Commands', () => {
  it('accepts updates (reducer update types included), Commands to known nodes, and nothing', () => {
    new StateGraph(State, { reducers: { log: appendReducer } })
      .addNode('a', () => [
        { log: 'one' },
        { count: 2 },
        null,
        new Command({ update: { log: ['x'] }, goto: 'a' }),
      ])
      .addNode('b', async () => [new Command({ goto: END })])
      .addEdge(START, 'a');
  });

  it('rejects an item with a wrong value type, and a Command to an unknown node', () => {
    new StateGraph(State).addNode(
      'a',
      // @ts-expect-error count is a number
      () => [{ count: 'two' }],
    );
    new StateGraph(State).addNode(
      'a',
      // @ts-expect-error 'nowhere' is not a node
      () => [new Command({ goto: 'nowhere' })],
    );
  });
});
