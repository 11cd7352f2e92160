import type { IndexedNodeSpec } from './spec-index.js';
import type { CompiledNode } from './topology.js';

/**
 * A topology's compiled nodes by name (`Topology.byName`), read through the spec's node map and the
 * positions recorded on its nodes: `get(name)` is `nodes[specNodes.get(name).index]`. Compiling a graph
 * builds no name map of its own (a 5000-node chain spent most of its topology time inserting into one).
 * Keys iterate in insertion order, like the map it replaces.
 *
 * @example
 * ```ts
 * declare const specNodes: ConstructorParameters<typeof NodesByName>[0]; // the spec's node map
 * declare const compiled: ConstructorParameters<typeof NodesByName>[1]; // its compiled nodes, by index
 * const byName = new NodesByName(specNodes, compiled);
 * byName.get('agent')?.index; // the position "agent" was added at
 * ```
 */
export class NodesByName implements ReadonlyMap<string, CompiledNode> {
  readonly #specNodes: ReadonlyMap<string, IndexedNodeSpec>;
  readonly #nodes: readonly CompiledNode[];

  constructor(specNodes: ReadonlyMap<string, IndexedNodeSpec>, nodes: readonly CompiledNode[]) {
    this.#specNodes = specNodes;
    this.#nodes = nodes;
  }

  get size(): number {
    return this.#nodes.length;
  }

  get(name: string): CompiledNode | undefined {
    const spec = this.#specNodes.get(name);
    return spec === undefined ? undefined : this.#nodes[spec.index];
  }

  has(name: string): boolean {
    return this.#specNodes.has(name);
  }

  keys(): MapIterator<string> {
    return this.#specNodes.keys();
  }

  *values(): MapIterator<CompiledNode> {
    yield* this.#nodes;
  }

  *entries(): MapIterator<[string, CompiledNode]> {
    for (const node of this.#nodes) yield [node.name, node];
  }

  [Symbol.iterator](): MapIterator<[string, CompiledNode]> {
    return this.entries();
  }

  forEach(
    callback: (value: CompiledNode, key: string, map: ReadonlyMap<string, CompiledNode>) => void,
    thisArg?: unknown,
  ): void {
    for (const node of this.#nodes) callback.call(thisArg, node, node.name, this);
  }
}
