// The floor: each benchmark graph on the floor engine (floor-engine.ts), a plain-async superstep loop
// with the same semantics and no features. It shows what is achievable on this machine.
import { FLOOR_END, type FloorCheckpoint, type FloorGraph, FloorSend, runFloor } from './floor-engine.ts';
import type { Counter, Items, Total } from './weft-graphs.ts';

const increment = (state: Counter) => ({ n: state.n + 1 });

/** A linear graph of `length` nodes, each adding 1 to `n`. */
export function floorChainGraph(length: number): FloorGraph {
  const nodes: Record<string, FloorGraph['nodes'][string]> = {};
  for (let i = 0; i < length; i++) {
    nodes[`n${i}`] = { run: increment, edges: [i + 1 < length ? `n${i + 1}` : FLOOR_END] };
  }
  return { nodes, start: ['n0'] };
}

export function floorChain(length: number): (input: Counter) => Promise<Counter> {
  const graph = floorChainGraph(length);
  return (input) => runFloor(graph, input);
}

/** `a` adds 1, `b` loops back to `a` until `n` reaches `iterations`. */
export function floorLoopGraph(iterations: number): FloorGraph {
  return {
    nodes: {
      a: { run: increment, edges: ['b'] },
      b: { run: () => ({}), router: (state) => ((state.n as number) < iterations ? 'a' : FLOOR_END) },
    },
    start: ['a'],
  };
}

export function floorLoop(
  iterations: number,
  checkpoint?: () => FloorCheckpoint,
): (input: Counter) => Promise<Counter> {
  const graph = floorLoopGraph(iterations);
  return (input) => runFloor(graph, input, checkpoint?.());
}

const append = (current: unknown, update: unknown) => [...(current as unknown[]), ...(update as unknown[])];
const sum = (current: unknown, update: unknown) => (current as number) + (update as number);

/** START → `width` parallel nodes, each appending its index → a join that counts the items. */
export function floorFanout(width: number): (input: Partial<Items>) => Promise<Items> {
  const nodes: Record<string, FloorGraph['nodes'][string]> = {
    join: { run: (state: Items) => ({ count: state.items.length }), edges: [FLOOR_END] },
  };
  const start: string[] = [];
  for (let i = 0; i < width; i++) {
    nodes[`p${i}`] = { run: () => ({ items: [i] }), edges: ['join'] };
    start.push(`p${i}`);
  }
  const graph: FloorGraph = { nodes, start, reducers: { items: append } };
  return (input) => runFloor(graph, { items: [], count: 0, ...input });
}

/** Map-reduce: `split` sends `tasks` inputs to `square`, whose results a sum reducer adds up. */
export function floorSend(tasks: number): (input: Total) => Promise<Total> {
  const inputs = Array.from({ length: tasks }, (_, i) => i);
  const graph: FloorGraph = {
    nodes: {
      split: { run: () => ({}), router: () => inputs.map((x) => new FloorSend('square', x)) },
      square: { run: (x: number) => ({ total: x * x }), edges: [FLOOR_END] },
    },
    start: ['split'],
    reducers: { total: sum },
  };
  return (input) => runFloor(graph, input);
}
