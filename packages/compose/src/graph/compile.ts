import type { NodeCache } from '../cache/node-cache.js';
import type { Checkpointer } from '../checkpoint/checkpointer.js';
import { GraphValidationError, type ValidationIssue } from '../errors/graph-validation-error.js';
import type { GraphAgentInfo } from '../events/node-events.js';
import { buildRuntimeTopology } from '../pregel/build-topology.js';
import { type IndexedGraphSpec, resolveEdges } from '../pregel/spec-index.js';
import type { ConcatFunction } from '../runnable/concat.js';
import { defaultFreezeState } from '../state/freeze-state.js';
import {
  FIRST_STATE_VERSION,
  type StateMigration,
  type StateVersioning,
} from '../state/migration/state-migration.js';
import type { Store } from '../store/store.js';
import { CompiledGraph } from './compiled-graph.js';
import { validateSpec } from './validate.js';

/** Options of `compile()`. */
export interface CompileOptions<TNodes extends string = string> {
  /** Name used in events, errors and drawings (default `graph`). */
  readonly name?: string;
  /**
   * Marks the graph as an agent's (agent kits set it): `run-start` and a nested run's `step-start`
   * events carry it, so tracing can open an `invoke_agent` span around the agent's steps.
   */
  readonly agent?: GraphAgentInfo;
  /** `pregel` (default): supersteps with loops; `dag`: each node runs once all its predecessors are done. */
  readonly mode?: 'pregel' | 'dag';
  /** Supersteps allowed per run (default 25); `StepLimitError` beyond. */
  readonly maxSteps?: number;
  /**
   * Tasks of this graph that may run at once within one step (default: the run's `concurrency`, else
   * unlimited). Unlike the run option, it also holds when the graph runs nested as a subgraph.
   */
  readonly concurrency?: number;
  /** Combines streaming nodes' chunks (default `concatChunks`); a node's own `concat` wins. */
  readonly concat?: ConcatFunction;
  /**
   * Checks every node's write against the state schema (refinements included) before it is applied, and
   * fails the step with a `StateUpdateError` naming the node and the key (default `true`). `false` skips
   * the checks (a few zod parses per step) for graphs whose nodes are trusted.
   */
  readonly checkUpdates?: boolean;
  /** Where nodes with a `cachePolicy` keep their results (`MemoryCache`, `SqliteCache`, `PostgresCache`). */
  readonly cache?: NodeCache;
  /**
   * Stores a checkpoint after every superstep. `true` is for a graph used as a subgraph: it keeps its own
   * state across the parent's turns on a thread (in the parent's checkpointer), instead of starting empty
   * on every call (the default).
   */
  readonly checkpointer?: Checkpointer | true;
  /** Long-term memory every node reaches as `ctx.store` (a run's `{ store }` replaces it). */
  readonly store?: Store;
  /** Pause before these nodes run (static breakpoints). */
  readonly interruptBefore?: readonly TNodes[];
  /** Pause after these nodes run. */
  readonly interruptAfter?: readonly TNodes[];
  /** When checkpoints reach the store: `sync` (default, before the next step), `async` (while it runs), `exit` (at the end, a pause or an error). */
  readonly durability?: 'sync' | 'async' | 'exit';
  /**
   * Deep-freeze the state handed to nodes (state graphs), so a node that changes it in place
   * (`state.items.push(x)`) fails with a `StateMutationError` naming it instead of silently diverging from
   * the checkpoints. Default: on unless `NODE_ENV` is `production` (where it costs nothing). Values that
   * reach the state are frozen in place: objects you pass as input, and the state `invoke` returns, are
   * frozen once a node has seen them; pass copies of objects you keep changing.
   */
  readonly freezeState?: boolean;
  /**
   * The version of the state this graph's checkpoints hold (a positive integer, default 1), recorded on
   * every checkpoint with the graph's `name`. Raise it when a deploy changes the state's shape, and give
   * `migrations` from the older versions: a thread written by an older version is migrated when it is
   * loaded (and its next checkpoint stores the migrated state); one written by a newer version is refused
   * with a `StateVersionError`.
   */
  readonly stateVersion?: number;
  /** `v → v + 1` state migrations, by `v` (see `StateMigration`); each below `stateVersion`. */
  readonly migrations?: Readonly<Record<number, StateMigration>>;
  /**
   * Nodes renamed or removed since older checkpoints were written: old name → the node of this graph that
   * takes its place. A thread paused at (or about to run) an old node continues at the new one; without
   * an entry, loading it fails with a `STATE_VERSION` error naming the node.
   */
  readonly renamedNodes?: Readonly<Record<string, string>>;
}

/**
 * Validates a spec (every problem at once) and builds its immutable runtime.
 *
 * @throws GraphValidationError listing every problem found.
 */
export function compileSpec<TInput, TOutput, TNodes extends string, TUpdate>(
  spec: IndexedGraphSpec,
  options: CompileOptions<TNodes> = {},
): CompiledGraph<TInput, TOutput, TNodes, TUpdate> {
  const name = options.name ?? 'graph';
  const mode = options.mode ?? 'pregel';
  // Validation and the topology resolve names through the positions the builder recorded on the nodes
  // (a 5000-node chain built three name maps before, then one shared index), static edges once for both.
  const edges = resolveEdges(spec);
  const issues: ValidationIssue[] = validateSpec(spec, mode, edges);
  if (options.maxSteps !== undefined && !(Number.isInteger(options.maxSteps) && options.maxSteps > 0)) {
    issues.push({
      kind: 'invalid-option',
      at: 'maxSteps',
      message: `maxSteps must be a positive integer, got ${options.maxSteps}`,
    });
  }
  if (
    options.concurrency !== undefined &&
    !(Number.isInteger(options.concurrency) && options.concurrency > 0)
  ) {
    issues.push({
      kind: 'invalid-option',
      at: 'concurrency',
      message: `concurrency must be a positive integer, got ${options.concurrency}`,
    });
  }
  for (const [key, list] of [
    ['interruptBefore', options.interruptBefore],
    ['interruptAfter', options.interruptAfter],
  ] as const) {
    for (const node of list ?? []) {
      if (!spec.nodes.has(node))
        issues.push({ kind: 'unknown-node', at: `${key}: ${node}`, message: `"${node}" is not a node` });
    }
  }
  const versioning = versioningOf(spec, options, issues);
  if (options.checkpointer && spec.localState) {
    issues.push({
      kind: 'invalid-option',
      at: 'localState',
      message:
        'local state lives for one run and is not checkpointed, so a resumed run would lose it; keep durable values in a StateGraph, or compile without a checkpointer',
    });
  }
  if (issues.length > 0) throw new GraphValidationError(name, issues);
  const topology = buildRuntimeTopology(spec, name, mode, {
    concat: options.concat,
    checkUpdates: options.checkUpdates ?? true,
    edges,
    agent: options.agent,
    versioning,
  });
  return new CompiledGraph<TInput, TOutput, TNodes, TUpdate>({
    topology,
    maxSteps: options.maxSteps ?? 25,
    concurrency: options.concurrency,
    checkpointer: options.checkpointer === true ? undefined : options.checkpointer,
    keepsState: options.checkpointer === true,
    store: options.store,
    cache: options.cache,
    durability: options.durability ?? 'sync',
    interruptBefore: options.interruptBefore ?? [],
    interruptAfter: options.interruptAfter ?? [],
    freezeState: topology.state !== undefined && (options.freezeState ?? defaultFreezeState()),
  });
}

/** The graph's state versioning, with an issue for a bad version or a migration outside `1 … version - 1`. */
function versioningOf(
  spec: IndexedGraphSpec,
  options: CompileOptions,
  issues: ValidationIssue[],
): StateVersioning {
  const version = options.stateVersion ?? FIRST_STATE_VERSION;
  if (!(Number.isInteger(version) && version >= 1)) {
    issues.push({
      kind: 'invalid-option',
      at: 'stateVersion',
      message: `stateVersion must be a positive integer, got ${String(options.stateVersion)}`,
    });
  }
  const migrations = new Map<number, StateMigration>();
  for (const [key, migration] of Object.entries(options.migrations ?? {})) {
    const from = Number(key);
    if (!(Number.isInteger(from) && from >= 1 && from < version) || typeof migration !== 'function') {
      issues.push({
        kind: 'invalid-option',
        at: `migrations.${key}`,
        message: `migrations.${key} must be a function migrating a version from 1 to ${version - 1} (stateVersion ${version}) to the next`,
      });
      continue;
    }
    migrations.set(from, migration);
  }
  const renamedNodes = new Map<string, string>();
  for (const [old, now] of Object.entries(options.renamedNodes ?? {})) {
    if (!spec.nodes.has(now)) {
      issues.push({
        kind: 'unknown-node',
        at: `renamedNodes.${old}`,
        message: `renamedNodes maps "${old}" to "${now}", which is not a node`,
      });
    } else renamedNodes.set(old, now);
  }
  return { version, migrations, ...(renamedNodes.size > 0 ? { renamedNodes } : {}) };
}
