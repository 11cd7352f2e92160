import { executeRun } from '../pregel/execute.js';
import type { LoopResult } from '../pregel/loop-hooks.js';
import type { RunContext } from '../pregel/run-context.js';
import type { RunOptions } from '../pregel/run-options.js';
import { runStep } from '../pregel/step.js';
import { SubgraphWrites } from '../pregel/subgraph-writes.js';
import { PlannedStep, SentTask } from '../pregel/task.js';
import type { CompiledNode, Topology } from '../pregel/topology.js';
import { Command, isCommand } from '../vocabulary/command.js';
import type { GraphRuntime } from './run-graph.js';

/** Options of {@link GraphNode.invoke}: what a run of one node takes (no thread: nothing is checkpointed). */
export type GraphNodeOptions<TNodes extends string = string> = Pick<
  RunOptions<TNodes>,
  'signal' | 'config' | 'store' | 'callbacks' | 'observe' | 'runId' | 'nodeOptions' | 'kindOptions'
>;

/**
 * One node of a compiled graph, run on its own (LangGraph's `graph.nodes.x.invoke(...)`): to test a
 * node in isolation with the graph's compiled options — its retry policy, timeout, input schema, state
 * handlers, the graph's store — and its `ctx`. A state graph's node takes a state and resolves with the
 * update it returned (a list of updates or a subgraph's writes as one object; a `Command` as returned);
 * a dataflow node takes its input and resolves with its output. Nothing is checkpointed and no edge is
 * followed; a node that calls `interrupt()` fails (there is no thread to pause), and the input is not
 * frozen (the caller's object is the node's state).
 *
 * @example
 * ```ts
 * const app = new StateGraph(z.object({ count: z.number() }))
 *   .addNode('increment', (s) => ({ count: s.count + 1 }))
 *   .addEdge(START, 'increment')
 *   .addEdge('increment', END)
 *   .compile();
 * await app.nodes.increment.invoke({ count: 1 }); // { count: 2 }
 * ```
 */
export interface GraphNode<TNodes extends string = string> {
  /** The node's name. */
  readonly name: string;
  /**
   * Runs the node once on `input` and resolves with what it returned (`unknown`: a graph's type keeps
   * the names of its nodes, not each node's own types).
   *
   * @throws NodeError when the node fails after its retries; WeftError `ABORTED` when `signal` fires.
   */
  invoke(input: unknown, options?: GraphNodeOptions<TNodes>): Promise<unknown>;
}

/** The nodes of a compiled graph by name, each runnable on its own (see {@link GraphNode}). */
export function graphNodes(runtime: GraphRuntime): Readonly<Record<string, GraphNode>> {
  const nodes: Record<string, GraphNode> = {};
  for (const node of runtime.topology.nodes) {
    nodes[node.name] = Object.freeze({
      name: node.name,
      invoke: (input: unknown, options: GraphNodeOptions = {}) => invokeNode(runtime, node, input, options),
    });
  }
  return Object.freeze(nodes);
}

async function invokeNode(
  runtime: GraphRuntime,
  node: CompiledNode,
  input: unknown,
  options: GraphNodeOptions,
): Promise<unknown> {
  const { topology } = runtime;
  const result = await executeRun({
    topology,
    input,
    options,
    defaults: { maxSteps: 1, store: runtime.store, cache: runtime.cache, freezeState: false },
    body: (run) => runOnce(topology, node, run, input),
  });
  return result.output;
}

/** Runs the node as the one task of a step, with `input` as its own input (as a `Send` gives one). */
async function runOnce(
  topology: Topology,
  node: CompiledNode,
  run: RunContext,
  input: unknown,
): Promise<LoopResult> {
  const step = new PlannedStep(0, topology.nodes, topology.kind === 'dataflow');
  const task = new SentTask(node.index, input, 0, step);
  const [output] = await runStep({ run, topology, tasks: [task], step: 0, values: input, fail: run.abort });
  return { status: 'done', output: plain(output), interrupts: [], steps: 1 };
}

/** A node's write as the caller sees it: the engine's own write forms as plain objects. */
function plain(output: unknown): unknown {
  if (output instanceof SubgraphWrites) return Object.fromEntries(output.writes);
  if (isCommand(output) && output.update instanceof SubgraphWrites) {
    return new Command({ update: Object.fromEntries(output.update.writes), goto: output.goto });
  }
  return output;
}
