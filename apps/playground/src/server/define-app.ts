import type { Agent, ArtifactService, MemoryService, PriceTable } from '@weft/adk';
import { type CompiledGraph, MemoryCheckpointer } from '@weft/compose';
import type { EvalSet } from '@weft/eval';

/** A compiled graph of any input, output and node names. */
export type AnyCompiledGraph = CompiledGraph<never, unknown, string, unknown>;

/** A graph with what the playground should know about it. */
export interface GraphEntryOptions {
  readonly graph: AnyCompiledGraph;
  /** Shown in the graph list. */
  readonly description?: string;
  /** Supersteps allowed per run; default: the graph's own (`compile({ maxSteps })`). */
  readonly maxSteps?: number;
}

/** An agent with what the playground should know about it. */
export interface AgentEntryOptions {
  readonly agent: Agent;
  readonly description?: string;
}

/** What {@link defineApp} takes: graphs and agents by the id the playground lists them under. */
export interface AppDefinition {
  readonly graphs?: Readonly<Record<string, AnyCompiledGraph | GraphEntryOptions>>;
  readonly agents?: Readonly<Record<string, Agent | AgentEntryOptions>> | readonly Agent[];
  /**
   * Eval sets for the Evals tab, by id: a set (`parseEvalSet(...)`) or the path of a `.json`/`.yaml`
   * file (relative to where `weft dev` runs; re-read on every listing). Each runs against any agent.
   */
  readonly evals?: Readonly<Record<string, EvalSet | string>>;
  /**
   * The long-term memory the app's agents use (`recall`, `memorize`, `load_memory`): the Memory tab
   * searches it and shows what was recalled for each turn.
   */
  readonly memory?: MemoryService;
  /** Artifacts of the app's agents: tools get `context.artifacts`; each thread shows its artifacts. */
  readonly artifacts?: ArtifactService;
  /** The session agents run in: `appName` (default `playground`), `userId` (default `playground-user`), the thread as session. */
  readonly session?: { readonly appName?: string; readonly userId?: string };
  /**
   * Model prices (US dollars per million tokens) added to adk's `defaultPrices`, or overriding them:
   * the trace and the run header show each model call's cost, per agent and per run, from them.
   */
  readonly prices?: PriceTable;
}

/** A set of graphs and agents for `weft dev`, made by {@link defineApp}. */
export interface PlaygroundApp extends AppDefinition {
  readonly kind: 'weft-playground-app';
}

/**
 * Declares what `weft dev` serves. Export the result (as `default` or any name) from your entry module.
 *
 * @example
 * ```ts
 * export default defineApp({
 *   graphs: { counter: counterGraph, research: { graph: researchGraph, maxSteps: 100 } },
 *   agents: [assistant],
 *   prices: { 'my-finetune': { input: 1, output: 4 } },
 * });
 * ```
 */
export function defineApp(definition: AppDefinition): PlaygroundApp {
  return Object.freeze({ ...definition, kind: 'weft-playground-app' as const });
}

/** True for a value made by {@link defineApp} (in any copy of this package). */
export function isPlaygroundApp(value: unknown): value is PlaygroundApp {
  return (
    typeof value === 'object' && value !== null && (value as PlaygroundApp).kind === 'weft-playground-app'
  );
}

/** True for a compiled graph, recognised by shape so graphs from another package copy count too. */
export function isCompiledGraph(value: unknown): value is AnyCompiledGraph {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<Record<keyof AnyCompiledGraph, unknown>>;
  return (
    typeof candidate.spec === 'object' &&
    typeof candidate.toJSON === 'function' &&
    typeof candidate.run === 'function' &&
    typeof candidate.getState === 'function'
  );
}

/** True for an agent (a `ChatModelAgent`, a workflow agent or a team), recognised by shape. */
export function isAgent(value: unknown): value is Agent {
  if (typeof value !== 'object' || value === null || isCompiledGraph(value)) return false;
  const candidate = value as Partial<Record<keyof Agent, unknown>>;
  return typeof candidate.compile === 'function' && typeof candidate.name === 'string';
}

/**
 * Collects what an entry module exports: a `defineApp` result (default or named), or compiled graphs
 * and agents as named exports (a default-exported graph is listed under its own name), and the graphs
 * of a `graphs` export shaped like a worker's `GraphMap` (compiled graphs or `(checkpointer) => graph`).
 *
 * @example
 * ```ts
 * const app = appFromModule(await import('./my-graphs.ts'));
 * ```
 */
export function appFromModule(module: Readonly<Record<string, unknown>>): PlaygroundApp {
  const declared = Object.values(module).find(isPlaygroundApp);
  if (declared) return declared;
  const graphs: Record<string, AnyCompiledGraph> = {};
  const agents: Record<string, Agent> = {};
  for (const [name, value] of Object.entries(module)) {
    if (name === 'graphs') Object.assign(graphs, graphsOfMap(value));
    else if (isAgent(value)) agents[name === 'default' ? value.name : name] = value;
    else if (isCompiledGraph(value)) graphs[name === 'default' ? value.name : name] = value;
  }
  return defineApp({ graphs, agents });
}

/**
 * The compiled graphs of a worker-style `graphs` export (`{ name: graph | (checkpointer) => graph }`);
 * factories get a placeholder memory checkpointer, which the registry replaces. Anything else: `{}`.
 *
 * @example
 * ```ts
 * graphsOfMap({ counter: (checkpointer) => builder.compile({ checkpointer }) }); // { counter: graph }
 * ```
 */
export function graphsOfMap(value: unknown): Record<string, AnyCompiledGraph> {
  if (typeof value !== 'object' || value === null || isCompiledGraph(value)) return {};
  const graphs: Record<string, AnyCompiledGraph> = {};
  for (const [id, source] of Object.entries(value as Record<string, unknown>)) {
    const graph =
      typeof source === 'function'
        ? (source as (c: MemoryCheckpointer) => unknown)(new MemoryCheckpointer())
        : source;
    if (isCompiledGraph(graph)) graphs[id] = graph;
  }
  return graphs;
}
