import { isCommand } from '../vocabulary/command.js';
import type { LoopView } from './loop-hooks.js';
import type { Finished } from './plan.js';
import { SubgraphWrites } from './subgraph-writes.js';
import type { Task } from './task.js';
import type { CompiledNode } from './topology.js';

/** A step's writes, per node (for the hooks: checkpoints). */
export interface StepWrites {
  records: Array<readonly [string, unknown]>;
}

/** What applying a step gives routing and the hooks. */
export interface AppliedTasks {
  readonly finished: Finished[];
  readonly writes: StepWrites;
  readonly changed: readonly string[];
}

/**
 * Applies a finished step's writes to the loop's state (through the reducers) and collects what routing
 * and the hooks need: each task as routed, and the writes kept when a hook or a parent graph
 * (`loop.writes`) reads them (the `updates` stream was shown each write as its task finished).
 */
export function applyTasks(loop: LoopView, tasks: readonly Task[], outputs: unknown[]): AppliedTasks {
  const { topology } = loop;
  const { nodes } = topology;
  const keep = loop.hooks.afterStep !== undefined || loop.writes !== undefined;
  const writes: StepWrites = { records: [] };
  const finished: Finished[] = new Array(tasks.length);
  let changed: readonly string[] = [];
  if (topology.state) {
    const applied = loop.applyState((i) => nameAt(nodes, tasks, i), outputs);
    changed = applied.changed;
    // Routers of a state graph read the state, not a task's output: a task without gotos is routed as
    // its node alone, and a run of such tasks of one node (a map step's) shares one item, so a map step
    // of N tasks allocates no N items. Keyed by the last node only: a list indexed by node position
    // would allocate a slot per node of the graph on every step (a 1000-node chain got 3.4× slower).
    let alone: Finished | undefined;
    for (let i = 0; i < tasks.length; i++) {
      const node = nodes[(tasks[i] as Task).node];
      const goto = applied.gotos[i];
      if (goto) finished[i] = { node, output: applied.updates[i], goto };
      else {
        if (alone === undefined || alone.node !== node) alone = { node, output: undefined, goto: undefined };
        finished[i] = alone;
      }
      if (!keep) continue;
      const output = outputs[i];
      const raw = isCommand(output) ? output.update : output;
      if (raw === undefined || raw === null) continue;
      const name = nameAt(nodes, tasks, i);
      writes.records.push([name, raw]);
      if (loop.writes) record(loop.writes, raw);
    }
  } else {
    for (let i = 0; i < tasks.length; i++) {
      const item = dataflowFinished(nodes[(tasks[i] as Task).node] as CompiledNode, outputs[i]);
      finished[i] = item;
      if (keep) writes.records.push([nameAt(nodes, tasks, i), item.output]);
    }
    if (topology.hasPipes) markPiped(tasks, finished);
    const decisions = loop.topology.hasStreamBranches ? loop.takeDecisions() : undefined;
    if (decisions) {
      decisions.forEach((decided, i) => {
        if (decided) finished[i] = { ...(finished[i] as Finished), decided };
      });
    }
  }
  return { finished, writes, changed };
}

/** The name of the node of the task at position `i`. */
function nameAt(nodes: readonly CompiledNode[], tasks: readonly Task[], i: number): string {
  return (nodes[(tasks[i] as Task).node] as CompiledNode).name;
}

/** A task's output as routing sees it: a `Command`'s update and goto, or the output itself. */
export function dataflowFinished(node: CompiledNode | undefined, output: unknown): Finished {
  if (isCommand(output))
    return { node, output: output.update, goto: output.goto.length > 0 ? output.goto : undefined };
  return { node, output, goto: undefined };
}

/** Marks, on each task whose output streamed into successors of the same step, which ones (ADR 022). */
function markPiped(tasks: readonly Task[], finished: Finished[]): void {
  for (const task of tasks) {
    const from = task.pipedFrom;
    if (from === undefined) continue;
    const producer = finished[from] as Finished;
    finished[from] = { ...producer, piped: [...(producer.piped ?? []), task.node] };
  }
}

function record(writes: Array<readonly [string, unknown]>, raw: unknown): void {
  if (raw instanceof SubgraphWrites) writes.push(...raw.writes);
  else for (const entry of Object.entries(raw as object)) writes.push(entry);
}
