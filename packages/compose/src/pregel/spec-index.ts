import type { GraphSpec } from './topology.js';

/**
 * A spec's node names by position and each name's position (insertion order), built once per
 * `compile()` and shared by validation and the runtime topology so neither builds its own name map.
 */
export interface SpecIndex {
  /** Node names in insertion order; a node's position is its runtime index. */
  readonly names: readonly string[];
  /** Node name → its position in `names` (START and END are not nodes). */
  readonly indexOf: ReadonlyMap<string, number>;
}

/** Indexes a spec's nodes in one pass over them. */
export function indexSpec(spec: Pick<GraphSpec, 'nodes'>): SpecIndex {
  const names: string[] = new Array(spec.nodes.size);
  const indexOf = new Map<string, number>();
  let position = 0;
  for (const name of spec.nodes.keys()) {
    names[position] = name;
    indexOf.set(name, position++);
  }
  return { names, indexOf };
}
