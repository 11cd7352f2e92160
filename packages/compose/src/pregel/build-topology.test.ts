import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StateGraph } from '../graph/state-graph.js';
import { END, START } from '../vocabulary/constants.js';
import { buildRuntimeTopology } from './build-topology.js';
import type { IndexedGraphSpec } from './spec-index.js';
import { END_INDEX } from './topology.js';

const schema = z.object({ n: z.number() });
const increment = (state: { n: number }) => ({ n: state.n + 1 });

/** START → `width` nodes, each edge declared twice, every node → END. */
function fanOutSpec(width: number): IndexedGraphSpec {
  // biome-ignore lint/suspicious/noExplicitAny: generated graph; the builder type grows with every node name
  let graph: any = new StateGraph(schema);
  for (let i = 0; i < width; i++) graph = graph.addNode(`n${i}`, increment);
  for (let round = 0; round < 2; round++)
    for (let i = 0; i < width; i++) graph = graph.addEdge(START, `n${i}`);
  for (let i = 0; i < width; i++) graph = graph.addEdge(`n${i}`, END).addEdge(`n${i}`, END);
  return graph.compile().spec as IndexedGraphSpec;
}

describe('buildRuntimeTopology', () => {
  it.each([3, 40])('drops duplicate edges of a %i-wide fan-out and keeps declaration order', (width) => {
    const topology = buildRuntimeTopology(fanOutSpec(width), 'graph', 'pregel');
    expect(topology.start.edges).toEqual(Array.from({ length: width }, (_, i) => i));
    for (const node of topology.nodes) expect(node.edges).toEqual([END_INDEX]);
    expect(topology.byName.get(`n${width - 1}`)?.index).toBe(width - 1);
  });

  it('groups branches, joins and gotos by node, and START has none of a node', () => {
    const router = (): typeof END => END;
    const spec = new StateGraph(schema)
      .addNode('a', increment)
      .addNode('b', increment)
      .addNode('c', increment, { goto: ['a'] })
      .addEdge(START, 'a')
      .addEdge(START, 'b')
      .addEdge(['a', 'b'], 'c')
      .addConditionalEdges('c', router, ['a', END])
      .compile().spec as IndexedGraphSpec;
    const topology = buildRuntimeTopology(spec, 'graph', 'pregel');
    const [a, b, c] = topology.nodes;
    expect(topology.start.edges).toEqual([0, 1]);
    expect(topology.start.branches).toEqual([]);
    expect(a?.joins.map((join) => join.target)).toEqual([2]);
    expect(b?.joins.map((join) => join.id)).toEqual([0]);
    expect(c?.branches.map((branch) => branch.router)).toEqual([router]);
    expect(c?.edges).toEqual([]);
    expect(topology.joins).toHaveLength(1);
  });
});

describe('a builder compiled more than once', () => {
  it('keeps each compiled graph as it was when compiled (the node map is copied on the next addNode)', () => {
    const builder = new StateGraph(schema).addNode('a', increment).addEdge(START, 'a').addEdge('a', END);
    const first = builder.compile();
    // biome-ignore lint/suspicious/noExplicitAny: the builder grows past its declared type on purpose
    const grown = (builder as any).addNode('b', increment).addEdge('a', 'b').addEdge('b', END);
    const second = grown.compile();
    expect([...first.spec.nodes.keys()]).toEqual(['a']);
    expect([...second.spec.nodes.keys()]).toEqual(['a', 'b']);
    expect(first.spec.edges).toHaveLength(2);
  });
});
