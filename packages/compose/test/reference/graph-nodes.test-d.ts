import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { END, type GraphNode, START, StateGraph } from '../../src/index.js';

const app = new StateGraph(z.object({ n: z.number() }))
  .addNode('one', (s) => ({ n: s.n + 1 }))
  .addNode('two', (s) => ({ n: s.n * 2 }))
  .addEdge(START, 'one')
  .addEdge('one', 'two')
  .addEdge('two', END)
  .compile();

describe('compiled.nodes is typed by node name', () => {
  it('has a GraphNode per node', () => {
    expectTypeOf(app.nodes.one).toEqualTypeOf<GraphNode<'one' | 'two'>>();
    expectTypeOf(app.nodes).toHaveProperty('two');
    expectTypeOf(app.nodes.one.invoke).returns.resolves.toBeUnknown();
  });

  it('rejects a name that is not a node', () => {
    // @ts-expect-error "three" is not a node of the graph
    void app.nodes.three;
  });
});
