import { runDurable } from '../checkpoint/durable-run.js';
import { drive } from '../pregel/drive.js';
import { runContext } from '../pregel/run-context.js';
import { RunControl } from '../pregel/run-control.js';
import { SubgraphPaused } from '../pregel/subgraph-paused.js';
import type { NestedRunParent } from '../pregel/topology.js';
import { nestedOwner, scopedObserver } from './nested-scope.js';
import { breakpointsOf, type GraphRuntime } from './run-graph.js';
import { subgraphUpdate } from './subgraph-update.js';

/**
 * Runs a compiled graph as a task of a parent run: same run id, events, signal and config, a path one
 * node deeper, and (when the parent checkpoints) its own namespace of checkpoints, so a pause inside it
 * resumes inside it. A state graph inside a state graph returns one update of the parent's keys (see
 * {@link subgraphUpdate}), which the parent applies through its own reducers.
 */
export async function runNested(
  runtime: GraphRuntime,
  parse: (input: unknown) => unknown,
  input: unknown,
  parent: NestedRunParent,
): Promise<unknown> {
  const { topology } = runtime;
  const control = new RunControl();
  const owner = nestedOwner(parent.run, parent.ctx.taskId, parent.key);
  const unfollow = control.follow(parent.signal);
  const run = runContext({
    ...parent.run,
    path: [...parent.run.path, parent.ctx.node],
    owner,
    observer: scopedObserver(parent.run.observer, owner.scope),
    ...(parent.config ? { config: { ...parent.run.config, ...parent.config } } : {}),
    store: parent.run.store ?? runtime.store,
    cache: runtime.cache ?? parent.run.cache,
    control,
    abort: (reason) => control.abort(reason),
    maxSteps: runtime.maxSteps,
    concurrency: runtime.concurrency ?? parent.run.concurrency,
    kind: topology.kind,
    nodes: topology.byName,
    state: topology.state,
    freezeState: runtime.freezeState,
    durable: undefined,
    // Each graph has its own local state (none when it declares none), never its parent's.
    localState: topology.localState?.(),
  });
  const state = topology.state;
  // An entrypoint takes the node's input as it is and returns its own result (its return value).
  const io = runtime.topology.spec.io;
  const childInput = io ? io.toState(input) : state ? await parse(pickKeys(input, state.keys)) : input;
  const parentState = parent.key === undefined && !io ? parent.run.state : undefined;
  const recordWrites = state !== undefined && parentState !== undefined;
  const key = parent.key === undefined ? '' : `:${parent.key}`;
  // A graph that keeps its state has one namespace per node (and key), so each call continues the last.
  const address = runtime.keepsState ? parent.ctx.node : `${parent.ctx.node}:${parent.ctx.taskId}`;
  const durable = parent.run.durable;
  const result = await (durable
    ? runDurable({
        topology,
        run,
        input: childInput,
        target: {
          checkpointer: durable.checkpointer,
          threadId: durable.threadId,
          ns: `${durable.ns ? `${durable.ns}|` : ''}${address}${key}`,
          durability: durable.durability,
          parents: { ...durable.parents, [durable.ns]: durable.currentId() ?? '' },
          resumeById: durable.resumeById,
          taskWrites: durable.taskWrites,
          breakpoints: breakpointsOf(runtime, {}),
          nested: true,
          keepsState: runtime.keepsState === true,
        },
        recordWrites,
      })
    : drive(topology, run, childInput, { recordWrites })
  ).finally(unfollow);
  if (result.status === 'interrupted') throw new SubgraphPaused(result.interrupts);
  if (io) return io.fromState(result.output as Record<string, unknown>);
  if (state && parentState && result.writes) {
    const values = result.output as Record<string, unknown>;
    return subgraphUpdate(state, parentState, { writes: result.writes, values }, parent.ctx.node);
  }
  return result.output;
}

function pickKeys(input: unknown, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (typeof input !== 'object' || input === null) return out;
  for (const key of keys) {
    const value = (input as Record<string, unknown>)[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}
