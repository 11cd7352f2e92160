import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StateGraph } from '../graph/state-graph.js';
import { END, START } from '../vocabulary/constants.js';
import { buildRuntimeTopology } from './build-topology.js';
import type { IndexedGraphSpec } from './spec-index.js';
import type { CompiledNode } from './topology.js';

const increment = (state: { n: number }) => ({ n: state.n + 1 });

/** The topology of START → c → a → b → END (added in the order c, a, b). */
function topology() {
  const spec = new StateGraph(z.object({ n: z.number() }))
    .addNode('c', increment)
    .addNode('a', increment)
    .addNode('b', increment)
    .addEdge(START, 'c')
    .addEdge('c', 'a')
    .addEdge('a', 'b')
    .addEdge('b', END)
    .compile().spec as IndexedGraphSpec;
  return buildRuntimeTopology(spec, 'graph', 'pregel');
}

describe('Topology.byName (NodesByName)', () => {
  it('reads like a map of the compiled nodes by name, in the order they were added', () => {
    const { nodes, byName } = topology();
    const expected = new Map<string, CompiledNode>(nodes.map((node) => [node.name, node]));
    expect(byName.size).toBe(3);
    expect([...byName.keys()]).toEqual(['c', 'a', 'b']);
    expect([...byName.values()]).toEqual([...expected.values()]);
    expect([...byName.entries()]).toEqual([...expected.entries()]);
    expect([...byName]).toEqual([...expected]);
    expect(new Map(byName)).toEqual(expected);
    for (const [name, node] of expected) {
      expect(byName.get(name)).toBe(node);
      expect(byName.has(name)).toBe(true);
      expect(node.index).toBe(nodes.indexOf(node));
    }
  });

  it('has neither START, END nor unknown names', () => {
    const { byName } = topology();
    for (const name of [START, END, 'd', '']) {
      expect(byName.has(name)).toBe(false);
      expect(byName.get(name)).toBeUndefined();
    }
  });

  it('calls forEach with value, key and the map itself, with thisArg', () => {
    const { byName } = topology();
    const seen: Array<[string, string, boolean, unknown]> = [];
    const self = { tag: 'this' };
    byName.forEach(function (this: unknown, node, name, map) {
      seen.push([node.name, name, map === byName, this]);
    }, self);
    expect(seen).toEqual([
      ['c', 'c', true, self],
      ['a', 'a', true, self],
      ['b', 'b', true, self],
    ]);
  });
});
