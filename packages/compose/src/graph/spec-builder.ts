import type { ZodType } from 'zod';
import type { ValidationIssue } from '../errors/graph-validation-error.js';
import type { IndexedGraphSpec, IndexedNodeSpec } from '../pregel/spec-index.js';
import type { BranchSpec, NodeImpl, RouterFunction, StateSpec, SubgraphHandle } from '../pregel/topology.js';
import { isRunnable } from '../runnable/runnable.js';
import { END, START } from '../vocabulary/constants.js';
import type { DataflowNodeOptions } from '../vocabulary/node-options.js';

/**
 * A valid node name (`^[^|:\s][^|:]*$`): not empty, not starting with white space, without "|" or ":".
 * Checked without a regex run per node: one pass over the characters, and a printable ASCII first
 * character is not white space (only other first characters go through the pattern).
 */
function isNodeName(name: string): boolean {
  const length = name.length;
  if (length === 0) return false;
  for (let i = 0; i < length; i++) {
    const code = name.charCodeAt(i);
    if (code === 124 /* | */ || code === 58 /* : */) return false;
  }
  const first = name.charCodeAt(0);
  return (first > 32 && first < 127) || !leadingSpace.test(name);
}

const leadingSpace = /^\s/;

/** True for a compiled graph (something with a graph spec), so it can be nested as a subgraph. */
export function isSubgraphHandle(value: unknown): value is SubgraphHandle {
  return (
    typeof value === 'object' &&
    value !== null &&
    'spec' in value &&
    typeof (value as SubgraphHandle).toJSON === 'function'
  );
}

/**
 * The mutable phase shared by every builder: records nodes, edges and branches, and collects
 * problems instead of throwing, so `compile()` can report them all at once.
 */
export class SpecBuilder {
  /** Each node with its position (the map's insertion order; nodes are never removed or renamed). */
  private nodes = new Map<string, IndexedNodeSpec>();
  /**
   * True once `spec()` handed `nodes` out: the next `addNode` copies it first (copy on write), so a
   * snapshot never changes and compiling a 5000-node graph does not copy its node map.
   */
  private nodesShared = false;
  private readonly edges: Array<{ from: string; to: string }> = [];
  private readonly joins: Array<{ sources: readonly string[]; to: string }> = [];
  private readonly dataEdges: Array<{ from: string; to: string }> = [];
  private localState: (() => unknown) | undefined;
  private endMerge: ((inputs: readonly unknown[], sources: readonly string[]) => unknown) | undefined;
  private readonly branches: BranchSpec[] = [];
  private readonly issues: ValidationIssue[] = [];
  private inputSchema: ZodType | undefined;
  private outputSchema: ZodType | undefined;

  constructor(
    private readonly kind: 'state' | 'dataflow',
    private readonly state: StateSpec | undefined,
  ) {}

  addNode(name: string, node: unknown, options: DataflowNodeOptions = {}): void {
    if (name === START || name === END) {
      this.issues.push({
        kind: 'reserved-name',
        at: name,
        message: `"${name}" is reserved; choose another node name`,
      });
      return;
    }
    if (typeof name !== 'string' || !isNodeName(name)) {
      this.issues.push({
        kind: 'invalid-name',
        at: String(name),
        message:
          'node names must be non-empty, must not start with white space and must not contain "|" or ":"',
      });
      return;
    }
    if (this.nodes.has(name)) {
      this.issues.push({
        kind: 'duplicate-node',
        at: name,
        message: `a node named "${name}" already exists; rename one of them`,
      });
      return;
    }
    const impl = toImpl(node);
    if (!impl) {
      this.issues.push({
        kind: 'invalid-option',
        at: name,
        message: 'a node must be a function, a Runnable or a compiled graph',
      });
      return;
    }
    if (this.nodesShared) {
      this.nodes = new Map(this.nodes);
      this.nodesShared = false;
    }
    this.nodes.set(name, { name, impl, options, index: this.nodes.size });
  }

  /** Records a problem found by a builder method, reported by `compile()` with the others. */
  addIssue(issue: ValidationIssue): void {
    this.issues.push(issue);
  }

  addEdge(from: string | readonly string[], to: string): void {
    if (Array.isArray(from)) {
      if (from.length === 0) {
        this.issues.push({
          kind: 'invalid-edge',
          at: `[] -> ${to}`,
          message: 'a join needs at least one source node',
        });
        return;
      }
      if (from.length === 1) this.edges.push({ from: from[0] as string, to });
      else this.joins.push({ sources: [...from], to });
      return;
    }
    this.edges.push({ from: from as string, to });
  }

  /** Adds a data-only edge: `to` receives `from`'s output without being triggered by it (workflows). */
  addDataEdge(from: string, to: string): void {
    this.dataEdges.push({ from, to });
  }

  /** Sets the factory of a dataflow graph's local state (one per run). */
  setLocalState(factory: (() => unknown) | undefined): void {
    if (factory !== undefined && typeof factory !== 'function') {
      this.issues.push({
        kind: 'invalid-option',
        at: 'localState',
        message: 'localState must be a function that returns a new state for each run',
      });
      return;
    }
    this.localState = factory;
  }

  /** Sets how a dataflow graph's output is built from what reached END (workflows). */
  setEndMerge(merge: (inputs: readonly unknown[], sources: readonly string[]) => unknown): void {
    this.endMerge = merge;
  }

  addBranch(from: string, router: RouterFunction, targets: readonly string[] | undefined): void {
    if (typeof router !== 'function') {
      this.issues.push({
        kind: 'invalid-edge',
        at: from,
        message: 'addConditionalEdges needs a router function',
      });
      return;
    }
    this.branches.push({ from, router, targets: targets ? [...targets] : undefined });
  }

  /** A branch whose condition reads `from`'s output as a stream (see `Graph.addStreamBranch`). */
  addStreamBranch(from: string, condition: RouterFunction, targets: readonly string[] | undefined): void {
    if (typeof condition !== 'function') {
      this.issues.push({
        kind: 'invalid-edge',
        at: from,
        message: 'addStreamBranch needs a condition function',
      });
      return;
    }
    const read = condition as (stream: AsyncIterable<unknown>) => unknown;
    const router = (output: unknown) => read(oneChunk(output));
    this.branches.push({ from, router, targets: targets ? [...targets] : undefined, condition });
  }

  setSchemas(input: ZodType | undefined, output: ZodType | undefined): void {
    this.inputSchema = input;
    this.outputSchema = output;
  }

  /** An independent copy, so a builder can be extended in two directions (see `Chain.pipe`). */
  clone(): SpecBuilder {
    const copy = new SpecBuilder(this.kind, this.state);
    copy.nodes = new Map(this.nodes);
    copy.edges.push(...this.edges);
    copy.joins.push(...this.joins);
    copy.dataEdges.push(...this.dataEdges);
    copy.localState = this.localState;
    copy.endMerge = this.endMerge;
    copy.branches.push(...this.branches);
    copy.issues.push(...this.issues);
    copy.setSchemas(this.inputSchema, this.outputSchema);
    return copy;
  }

  /** A snapshot of everything declared so far (later builder calls do not change it). */
  spec(): IndexedGraphSpec {
    this.nodesShared = true;
    return {
      kind: this.kind,
      nodes: this.nodes,
      edges: [...this.edges],
      joins: [...this.joins],
      ...(this.dataEdges.length > 0 ? { dataEdges: [...this.dataEdges] } : {}),
      ...(this.localState ? { localState: this.localState } : {}),
      ...(this.endMerge ? { endMerge: this.endMerge } : {}),
      branches: [...this.branches],
      state: this.state,
      inputSchema: this.inputSchema,
      outputSchema: this.outputSchema,
      issues: [...this.issues],
    };
  }
}

async function* oneChunk(value: unknown): AsyncIterable<unknown> {
  yield value;
}

function toImpl(node: unknown): NodeImpl | undefined {
  if (isSubgraphHandle(node)) return { kind: 'subgraph', graph: node };
  if (isRunnable(node)) return { kind: 'runnable', runnable: node };
  if (typeof node === 'function')
    return { kind: 'function', fn: node as (input: never, ctx: never) => unknown };
  return undefined;
}
