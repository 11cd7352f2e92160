import { WeftError } from '../errors/weft-error.js';
import type { CallOptionsRouting, NodeCallOptions, RunOptions } from './run-options.js';
import type { Topology } from './topology.js';

/**
 * Indexes a run's `nodeOptions` and `kindOptions`, or returns `undefined` when it has neither (so a run
 * without call options costs nothing). Every name or path is checked as deep as the graph is known
 * statically (subgraph nodes); beyond a node whose graph is chosen at run time it cannot be.
 *
 * @throws WeftError `INVALID_ARGUMENT` naming a key that names no node, or options that are not objects.
 */
export function callOptionsOf(topology: Topology, options: RunOptions): CallOptionsRouting | undefined {
  const { nodeOptions, kindOptions } = options;
  if (nodeOptions === undefined && kindOptions === undefined) return undefined;
  const byPath = new Map<string, NodeCallOptions>();
  for (const [key, value] of Object.entries(nodeOptions ?? {})) {
    checkValue(`nodeOptions["${key}"]`, value);
    checkPath(topology, key);
    byPath.set(key, value as NodeCallOptions);
  }
  const byKind = new Map<string, NodeCallOptions>();
  for (const [kind, value] of Object.entries(kindOptions ?? {})) {
    checkValue(`kindOptions["${kind}"]`, value);
    byKind.set(kind, value as NodeCallOptions);
  }
  return { byPath, byKind };
}

/** The call options of one node: its kind's, overlaid by its path's; `undefined` when none apply. */
export function resolveCallOptions(
  routing: CallOptionsRouting,
  path: readonly string[],
  kind: string | undefined,
): NodeCallOptions | undefined {
  const byPath = routing.byPath.size > 0 ? routing.byPath.get(path.join('/')) : undefined;
  const byKind = kind !== undefined ? routing.byKind.get(kind) : undefined;
  if (byKind === undefined) return byPath;
  return byPath === undefined ? byKind : { ...byKind, ...byPath };
}

function checkValue(at: string, value: unknown): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new WeftError('INVALID_ARGUMENT', `${at} must be an object of call options, got ${String(value)}`);
  }
}

function checkPath(topology: Topology, key: string): void {
  const segments = key.split('/');
  let nodes = topology.spec.nodes;
  let graph = topology.name;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as string;
    const node = nodes.get(segment);
    if (!node) {
      throw new WeftError(
        'INVALID_ARGUMENT',
        `nodeOptions["${key}"]: "${segment}" is not a node of graph "${graph}" (nodes: ${[...nodes.keys()].join(', ')})`,
      );
    }
    if (i === segments.length - 1) return;
    // A node that runs graphs chosen at run time (`ctx.runSubgraph`): deeper segments cannot be checked.
    if (node.impl.kind !== 'subgraph') return;
    nodes = node.impl.graph.spec.nodes;
    graph = node.impl.graph.name;
  }
}
