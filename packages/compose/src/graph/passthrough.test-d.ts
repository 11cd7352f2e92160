import { describe, expectTypeOf, it } from 'vitest';
import { END, START } from '../vocabulary/constants.js';
import { Graph } from './graph.js';

describe('passthrough types', () => {
  it('takes its type from the first edge into it', () => {
    const graph = new Graph<string, number>()
      .addPassthrough('fork')
      .addNode('length', (text: string) => text.length)
      .addEdge(START, 'fork');
    graph.addConditionalEdges('fork', (text) => {
      expectTypeOf(text).toEqualTypeOf<string>();
      return 'length';
    });
    graph.addEdge('fork', 'length').addEdge('length', END);
    const wrong = new Graph<number, number>()
      .addPassthrough('fork')
      .addNode('shout', (text: string) => text.toUpperCase())
      .addEdge(START, 'fork');
    // @ts-expect-error the passthrough now carries a number, which does not fit "shout"
    wrong.addEdge('fork', 'shout');
  });

  it('fits any edge while no edge into it fixed its type', () => {
    new Graph<string, number>()
      .addNode('length', (text: string) => text.length)
      .addPassthrough('later')
      .addEdge('later', 'length');
  });
});
