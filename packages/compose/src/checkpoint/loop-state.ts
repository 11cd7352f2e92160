import { WeftError } from '../errors/weft-error.js';
import type { RoutingState } from '../pregel/plan.js';
import type { Task } from '../pregel/task.js';
import { type CompiledNode, END_INDEX, type Topology } from '../pregel/topology.js';
import { END } from '../vocabulary/constants.js';
import type { StoredRouting, StoredTask } from './checkpoint-body.js';

/** Converts planned tasks to their stored form (node names instead of indices). */
export function storeTasks(topology: Topology, tasks: readonly Task[]): StoredTask[] {
  return tasks.map((task) => {
    const node = (topology.nodes[task.node] as CompiledNode).name;
    if (task.pipedFrom !== undefined) return { id: task.id, node, pipedFrom: task.pipedFrom };
    return task.hasInput ? { id: task.id, node, input: task.input } : { id: task.id, node };
  });
}

/** Converts stored tasks back, failing clearly when the graph no longer has a node. */
export function loadTasks(topology: Topology, tasks: readonly StoredTask[]): Task[] {
  return tasks.map((task) => ({
    node: nodeIndex(topology, task.node),
    input: task.input,
    hasInput: 'input' in task || task.pipedFrom !== undefined,
    id: task.id,
    ...(task.pipedFrom === undefined ? {} : { pipedFrom: task.pipedFrom }),
  }));
}

/**
 * Gives planned tasks fresh ids (same `prefix:node:position` shape) so that nothing stored under their old
 * ids — task writes, subgraph namespaces — is taken for theirs. Tasks `keep` accepts keep their id.
 */
export function renewTaskIds(
  topology: Topology,
  tasks: readonly Task[],
  prefix: string,
  keep: (task: Task) => boolean = () => false,
): Task[] {
  return tasks.map((task, position) =>
    keep(task)
      ? task
      : renamed(task, `${prefix}:${(topology.nodes[task.node] as CompiledNode).name}:${position}`),
  );
}

/** A task under a new id (its other fields read, not spread: a planned task's are partly getters). */
function renamed(task: Task, id: string): Task {
  const { node, input, hasInput, pipedFrom } = task;
  return pipedFrom === undefined ? { node, input, hasInput, id } : { node, input, hasInput, id, pipedFrom };
}

/** Converts routing state to its stored form. */
export function storeRouting(topology: Topology, routing: RoutingState): StoredRouting {
  const name = (index: number): string =>
    index === END_INDEX ? END : (topology.nodes[index] as CompiledNode).name;
  return {
    barriers: [...routing.barriers].map(([id, sources]) => [id, [...sources].map(name)] as const),
    inbox: [...routing.inbox].map(
      ([target, entry]) =>
        [name(target), { sources: [...entry.sources], values: [...entry.values] }] as const,
    ),
    deferred: [...routing.deferred].map(name),
  };
}

/** Converts stored routing state back to the runtime form. */
export function loadRouting(topology: Topology, stored: StoredRouting): RoutingState {
  const index = (name: string): number => (name === END ? END_INDEX : nodeIndex(topology, name));
  return {
    barriers: new Map(stored.barriers.map(([id, sources]) => [id, new Set(sources.map(index))])),
    inbox: new Map(
      stored.inbox.map(([target, entry]) => [
        index(target),
        { sources: [...entry.sources], values: [...entry.values] },
      ]),
    ),
    deferred: new Set(stored.deferred.map(index)),
  };
}

function nodeIndex(topology: Topology, name: string): number {
  const renamed = topology.versioning.renamedNodes?.get(name);
  const node = topology.byName.get(renamed ?? name);
  if (!node) {
    throw new WeftError(
      'STATE_VERSION',
      `the checkpoint refers to node "${renamed ?? name}", which graph "${topology.name}" does not have; it was written by another version of the graph (name the node that takes its place with compile({ renamedNodes: { ${JSON.stringify(name)}: "…" } }))`,
    );
  }
  return node.index;
}
