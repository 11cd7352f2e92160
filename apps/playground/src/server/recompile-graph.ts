import { type Checkpointer, Graph, type GraphSpec, StateGraph } from '@weft/compose';
import type { AnyCompiledGraph } from './define-app.ts';

/**
 * The builder calls a recompile needs, without the literal node-name types (which a spec read at run
 * time cannot have). Both `StateGraph` and `Graph` satisfy it at run time.
 */
interface UntypedBuilder {
  addNode(name: string, node: unknown, options?: unknown): UntypedBuilder;
  addEdge(from: string | readonly string[], to: string): UntypedBuilder;
  addConditionalEdges(from: string, router: unknown, targets?: readonly string[]): UntypedBuilder;
  compile(options: { name: string; mode: 'pregel' | 'dag'; checkpointer?: Checkpointer }): AnyCompiledGraph;
}

type NodeSpec = GraphSpec['nodes'] extends ReadonlyMap<string, infer TNode> ? TNode : never;

/**
 * Compiles a graph again from its public spec, this time with the playground's checkpointer, so every
 * graph a module exports gets threads, history, resume and forks. Nodes, edges, joins, branches,
 * schemas and reducers are kept; compile options other than the name and mode (`maxSteps`,
 * `durability`, `concat`, static breakpoints) are not part of the spec — the playground passes
 * `maxSteps` and breakpoints per run instead.
 *
 * @throws GraphValidationError if the spec no longer compiles (it compiled once, so only on a bug).
 * @example
 * ```ts
 * const durable = recompileWithCheckpointer(graph, new SqliteCheckpointer({ filename: '.weft/weft.db' }));
 * ```
 */
export function recompileWithCheckpointer(
  graph: AnyCompiledGraph,
  checkpointer: Checkpointer,
): AnyCompiledGraph {
  const spec = graph.spec;
  const input = spec.inputSchema ? { input: spec.inputSchema } : {};
  // `as unknown as`: the builders' generic signatures need literal node names, which a spec read at
  // run time does not have; the untyped view calls the same methods.
  const builder = (spec.state
    ? new StateGraph(spec.state.schema, { reducers: spec.state.reducers, ...input })
    : new Graph(input)) as unknown as UntypedBuilder;
  for (const node of spec.nodes.values()) builder.addNode(node.name, implementationOf(node), node.options);
  for (const edge of spec.edges) builder.addEdge(edge.from, edge.to);
  for (const join of spec.joins) builder.addEdge(join.sources, join.to);
  for (const branch of spec.branches) {
    if (branch.targets) builder.addConditionalEdges(branch.from, branch.router, branch.targets);
    else builder.addConditionalEdges(branch.from, branch.router);
  }
  return builder.compile({ name: graph.name, mode: graph.mode, checkpointer });
}

function implementationOf(node: NodeSpec): unknown {
  switch (node.impl.kind) {
    case 'function':
      return node.impl.fn;
    case 'runnable':
      return node.impl.runnable;
    case 'subgraph':
      return node.impl.graph;
  }
}
