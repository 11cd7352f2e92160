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
    readonly before?: unknown;
    readonly beforeStream?: unknown;
  };
}

/** What {@link findPipes} reads of a graph (a `GraphSpec`, structurally). */
interface GraphSpec {
  readonly kind: 'state' | 'dataflow';
  readonly nodes: ReadonlyMap<string, NodeSpec>;
  readonly edges: ReadonlyArray<{ readonly from: string; readonly to: string }>;
  readonly joins: ReadonlyArray<{ readonly to: string }>;
  readonly dataEdges?: ReadonlyArray<{ readonly from: string; readonly to: string }> | undefined;
  readonly branches: ReadonlyArray<{
    readonly from: string;
    readonly targets: readonly string[] | undefined;
  }>;
}

/**
 * Finds the edges a stream flows through (ADR 022): in a dataflow graph, the static edge `from → to` is
 * a pipe when `to` reads its input stream as it comes (a runnable with its own `transform`, and no
 * `before` handler without a `beforeStream` one) and would get nothing but `from`'s output: it is its
 * only incoming edge (no join, no START edge, no data edge; in DAG mode no branch may target it either,
 * since a branch source is a predecessor there), it has no `merge`, input schema, retry, cache or
 * `defer`. `from` must be a function or a runnable without retry, cache or `outputKey` (a retried stream
 * could not be taken back). A node's stream is copied to every such successor (as Eino copies a stream
 * to each successor), in edge order. Returns the readers by `from`.
 */
export function findPipes(spec: GraphSpec, mode: 'pregel' | 'dag'): Map<string, string[]> {
  const pipes = new Map<string, string[]>();
  if (spec.kind !== 'dataflow') return pipes;
  const incoming = incomingCounts(spec, mode);
  for (const edge of spec.edges) {
    if (edge.from === START || edge.to === END || edge.from === edge.to) continue;
    const from = spec.nodes.get(edge.from);
    const to = spec.nodes.get(edge.to);
    if (!from || !to || incoming.get(edge.to) !== 1) continue;
    if (!canFeed(from) || !canRead(to)) continue;
    const readers = pipes.get(edge.from);
    if (!readers) pipes.set(edge.from, [edge.to]);
    else if (!readers.includes(edge.to)) readers.push(edge.to);
  }
  return pipes;
}

/**
 * The nodes a graph's own stream input flows into (`collect`/`transform` on a compiled graph, ADR 022):
 * every target of START's static edges, when each of them can read a stream and gets nothing else (as a
 * pipe's reader, see {@link findPipes}) and START has no branch or data edge. `undefined` otherwise (the
 * graph's stream input is then joined before the run).
 */
export function findStreamStart(spec: GraphSpec, mode: 'pregel' | 'dag'): readonly string[] | undefined {
  if (spec.kind !== 'dataflow') return undefined;
  if (spec.branches.some((b) => b.from === START)) return undefined;
  if ((spec.dataEdges ?? []).some((e) => e.from === START)) return undefined;
  const incoming = incomingCounts(spec, mode === 'pregel' ? 'dag' : mode);
  const targets = spec.edges.filter((e) => e.from === START).map((e) => e.to);
  if (targets.length === 0) return undefined;
  for (const target of targets) {
    const node = spec.nodes.get(target);
    if (!node || incoming.get(target) !== 1 || !canRead(node)) return undefined;
  }
  return [...new Set(targets)];
}

/** How many ways a value reaches each node (a join counts twice: it never gives a single input). */
function incomingCounts(spec: GraphSpec, mode: 'pregel' | 'dag'): Map<string, number> {
  const incoming = new Map<string, number>();
  const add = (to: string, n: number) => incoming.set(to, (incoming.get(to) ?? 0) + n);
  for (const edge of spec.edges) add(edge.to, 1);
  for (const join of spec.joins) add(join.to, 2);
  for (const edge of spec.dataEdges ?? []) add(edge.to, 1);
  if (mode === 'dag') {
    for (const branch of spec.branches) for (const target of branch.targets ?? []) add(target, 1);
  }
  return incoming;
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
    options.defer !== true &&
    // A `before` handler needs the whole input, unless a `beforeStream` handler reads the stream.
    (options.before === undefined || options.beforeStream !== undefined)
  );
}

function retries(node: NodeSpec): boolean {
  const attempts = node.options.retry?.maxAttempts;
  return node.options.retry !== undefined && (attempts === undefined || attempts > 1);
}
