import { describe, expect, it } from 'vitest';
import { SpecBuilder } from '../graph/spec-builder.js';
import { END, START } from '../vocabulary/constants.js';
import { nodeNames, resolveEdges } from './spec-index.js';

const noop = () => ({});

describe('resolveEdges', () => {
  it('numbers each static edge end: node position, START the node count, END one more, -1 not a node', () => {
    const builder = new SpecBuilder('state', undefined);
    builder.addNode('b', noop);
    builder.addNode('a', noop);
    builder.addEdge(START, 'a');
    builder.addEdge('a', 'b');
    builder.addEdge('b', END);
    builder.addEdge('a', 'missing');
    builder.addEdge('ghost', 'a');
    builder.addEdge(END, START);
    builder.addEdge(['a', 'b'], 'a'); // a join, not a static edge
    const spec = builder.spec();
    const { from, to } = resolveEdges(spec);
    expect([...from]).toEqual([2, 1, 0, 1, -1, 3]);
    expect([...to]).toEqual([1, 0, 3, -1, 1, 2]);
    expect(nodeNames(spec)).toEqual(['b', 'a']);
  });
});
