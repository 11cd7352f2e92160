import { streamsInput } from '../runnable/runnable.js';
import { END, START } from '../vocabulary/constants.js';

/** What {@link findPipes} reads of a node (a `NodeSpec`, structurally: no import back into topology). */
interface NodeSpec {
  readonly impl: { readonly kind: string; readonly runnable?: unknown };
  readonly options: {
    readonly retry?: { readonly maxAttempts?: number } | undefined;
    readonly cachePolicy?: unknown;
    readonly outputKey?: string | undefined;
    readonly merge?: unknown;
    readonly input?: unknown;
    readonly defer?: boolean | undefined;
  };
}

/** What {@link findPipes} reads of a graph (a `GraphSpec`, structurally). */
interface GraphSpec {
  readonly kind: 'state' | 'dataflow';
  readonly nodes: ReadonlyMap<string, NodeSpec>;
  readonly edges: ReadonlyArray<{ readonly from: string; readonly to: string }>;
  readonly joins: ReadonlyArray<{ readonly to: string }>;
}

/**
 * Finds the edges a stream flows through (ADR 022): in a dataflow graph in Pregel mode, the static edge
 * `from → to` is a pipe when `to` reads its input stream as it comes (a runnable with its own
 * `transform`) and would get nothing but `from`'s output: it is its only incoming edge (no join, no
 * START edge), it has no `merge`, input schema, retry, cache or `defer`. `from` must be a function or a
 * runnable without retry, cache or `outputKey` (a retried stream could not be taken back). Each node
 * pipes into at most one successor, the first eligible one in edge order. Returns `to` by `from`.
 */
export function findPipes(spec: GraphSpec, mode: 'pregel' | 'dag'): Map<string, string> {
  const pipes = new Map<string, string>();
  if (spec.kind !== 'dataflow' || mode !== 'pregel') return pipes;
  const incoming = new Map<string, number>();
  for (const edge of spec.edges) incoming.set(edge.to, (incoming.get(edge.to) ?? 0) + 1);
  for (const join of spec.joins) incoming.set(join.to, (incoming.get(join.to) ?? 0) + 2);
  for (const edge of spec.edges) {
    if (edge.from === START || edge.to === END || edge.from === edge.to || pipes.has(edge.from)) continue;
    const from = spec.nodes.get(edge.from);
    const to = spec.nodes.get(edge.to);
    if (!from || !to || incoming.get(edge.to) !== 1) continue;
    if (canFeed(from) && canRead(to)) pipes.set(edge.from, edge.to);
  }
  return pipes;
}

function canFeed(node: NodeSpec): boolean {
  const { options } = node;
  return (
    node.impl.kind !== 'subgraph' &&
    !retries(node) &&
    options.cachePolicy === undefined &&
    options.outputKey === undefined
  );
}

function canRead(node: NodeSpec): boolean {
  const { options } = node;
  return (
    node.impl.kind === 'runnable' &&
    streamsInput(node.impl.runnable) &&
    !retries(node) &&
    options.merge === undefined &&
    options.input === undefined &&
    options.cachePolicy === undefined &&
    options.defer !== true
  );
}

function retries(node: NodeSpec): boolean {
  const attempts = node.options.retry?.maxAttempts;
  return node.options.retry !== undefined && (attempts === undefined || attempts > 1);
}
