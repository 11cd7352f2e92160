import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type IndexedGraphSpec, resolveEdges } from '../pregel/spec-index.js';
import { END, START } from '../vocabulary/constants.js';
import { StateGraph } from './state-graph.js';
import {
  successorMap as buildMap,
  findCycle,
  reachableFromStart,
  reachingEnd,
  type SuccessorMap,
  vertexName,
} from './successor-map.js';

const schema = z.object({ n: z.number() });
const increment = (state: { n: number }) => ({ n: state.n + 1 });

function successorMap(spec: IndexedGraphSpec, declaredOnly: boolean): SuccessorMap {
  return buildMap(spec, resolveEdges(spec), declaredOnly);
}

/** The names of the vertices a reachability pass marked. */
function marked(map: SuccessorMap, flags: Uint8Array): Set<string> {
  const names = new Set<string>();
  flags.forEach((flag, vertex) => {
    if (flag === 1) names.add(vertexName(map, vertex));
  });
  return names;
}

/** A spec of `length` nodes in a line, optionally with a back edge from the last to the first. */
function chainSpec(length: number, backEdge = false): IndexedGraphSpec {
  // biome-ignore lint/suspicious/noExplicitAny: generated graph; the builder type grows with every node name
  let graph: any = new StateGraph(schema);
  for (let i = 0; i < length; i++) graph = graph.addNode(`n${i}`, increment);
  graph = graph.addEdge(START, 'n0');
  for (let i = 1; i < length; i++) graph = graph.addEdge(`n${i - 1}`, `n${i}`);
  graph = graph.addEdge(`n${length - 1}`, END);
  if (backEdge) graph = graph.addEdge(`n${length - 1}`, 'n0');
  return graph.compile({ mode: 'pregel' }).spec as IndexedGraphSpec;
}

describe('successorMap', () => {
  it('walks a 100,000-node chain both ways and finds no cycle without overflowing the stack', () => {
    const map = successorMap(chainSpec(100_000), false);
    expect(marked(map, reachableFromStart(map)).size).toBe(100_002);
    expect(marked(map, reachingEnd(map)).size).toBe(100_002);
    expect(findCycle(map)).toBeUndefined();
  });

  it('finds a cycle through a back edge, as a list that closes on its first node', () => {
    const cycle = findCycle(successorMap(chainSpec(50_000, true), false)) ?? [];
    expect(cycle[0]).toBe(cycle.at(-1));
    expect(cycle).toHaveLength(50_001);
  });

  it('treats a router without declared targets as reaching every node and END', () => {
    const spec = new StateGraph(schema)
      .addNode('route', increment)
      .addNode('island', increment)
      .addEdge(START, 'route')
      .addEdge('island', END)
      .addConditionalEdges('route', () => END)
      .compile().spec as IndexedGraphSpec;
    const open = successorMap(spec, false);
    expect(open.open.map((vertex) => vertexName(open, vertex))).toEqual(['route']);
    expect(marked(open, reachableFromStart(open)).has('island')).toBe(true);
    expect(marked(open, reachingEnd(open)).has('route')).toBe(true);
    const declared = successorMap(spec, true);
    expect(declared.open).toHaveLength(0);
    expect(marked(declared, reachableFromStart(declared)).has('island')).toBe(false);
  });
});
