import {
  type Agent,
  MemorySessionService,
  type PriceTable,
  priceTable,
  type SessionService,
} from '@weft/adk';
import { defaultPrices } from '@weft/adk/prices';
import type { Checkpointer } from '@weft/compose';
import Database from 'better-sqlite3';
import { type AgentServices, agentEntry } from './agent-entry.ts';
import {
  type AgentEntryOptions,
  type GraphEntryOptions,
  isAgent,
  isCompiledGraph,
  type PlaygroundApp,
} from './define-app.ts';
import { graphEntry } from './graph-entry.ts';
import type { RecallLog } from './memory/recall-log.ts';
import type { RegistryEntry } from './registry-entry.ts';
import { SessionBranches } from './session-branches.ts';

/** The graphs and agents the server currently serves, by id. */
export interface Registry {
  readonly entries: ReadonlyMap<string, RegistryEntry>;
  /** Problems met while registering (a graph that could not be registered, a duplicate id…). */
  readonly problems: readonly string[];
  /** adk's `defaultPrices` with the app's `prices` on top (the defaults alone when those are invalid). */
  readonly prices: PriceTable;
}

/** Options of {@link createRegistry}. */
export interface RegistryOptions {
  /** Receives what `recall` put in agents' instructions (the Memory tab lists it). */
  readonly recalls?: RecallLog;
  /**
   * `in-process` (default): graphs get the checkpointer attached, agents instrumented.
   * `worker`: graphs get the checkpointer attached as is (the same graphs the workers run); no agents.
   */
  readonly mode?: 'in-process' | 'worker';
  /**
   * Where agents' sessions are committed and which sessions each thread has (default: in memory); the
   * server uses a `SqliteSessionService` on its database.
   */
  readonly sessions?: { readonly service: SessionService; readonly branches: SessionBranches };
}

/**
 * Builds the registry of an app: each graph as compiled with the checkpointer attached, each agent instrumented.
 * A graph that cannot be registered is reported in `problems` instead of failing the whole app.
 *
 * @example
 * ```ts
 * const registry = createRegistry(defineApp({ graphs: { loop } }), checkpointer);
 * registry.entries.get('loop')?.info.topology;
 * ```
 */
export function createRegistry(
  app: PlaygroundApp,
  checkpointer: Checkpointer,
  registryOptions: RegistryOptions = {},
): Registry {
  const workers = registryOptions.mode === 'worker';
  let services: AgentServices | undefined;
  const entries = new Map<string, RegistryEntry>();
  const problems: string[] = [];
  const add = (id: string, make: () => RegistryEntry): void => {
    if (entries.has(id)) {
      problems.push(`"${id}" is declared twice; the second one is ignored`);
      return;
    }
    try {
      entries.set(id, make());
    } catch (error) {
      problems.push(`"${id}" could not be loaded: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  for (const [id, value] of Object.entries(app.graphs ?? {})) {
    const options: GraphEntryOptions | undefined = isCompiledGraph(value) ? { graph: value } : value;
    if (!options || !isCompiledGraph(options.graph)) {
      problems.push(`graphs.${id} is not a compiled graph (call .compile() on the builder)`);
      continue;
    }
    add(id, () => graphEntry({ id, ...options }, checkpointer));
  }
  for (const [id, value] of agentList(app.agents)) {
    if (workers) {
      problems.push(`agent "${id}" is not listed: attached to workers, the playground serves graphs only`);
      continue;
    }
    const options: AgentEntryOptions | undefined = isAgent(value) ? { agent: value } : value;
    if (!options || !isAgent(options.agent)) {
      problems.push(`agents.${id} is not an agent`);
      continue;
    }
    services ??= agentServices(app, registryOptions);
    const shared = services;
    add(id, () => agentEntry({ id, ...options }, checkpointer, shared));
  }
  return { entries, problems, prices: pricesOf(app, problems) };
}

function pricesOf(app: PlaygroundApp, problems: string[]): PriceTable {
  if (!app.prices) return defaultPrices;
  try {
    return priceTable(defaultPrices, app.prices);
  } catch (error) {
    problems.push(`prices: ${error instanceof Error ? error.message : String(error)}`);
    return defaultPrices;
  }
}

/**
 * The app's agents by the id the playground lists them under (an array's by their names).
 *
 * @example
 * ```ts
 * for (const [id, entry] of agentList(app.agents)) console.log(id);
 * ```
 */
export function agentList(agents: PlaygroundApp['agents']): Array<[string, Agent | AgentEntryOptions]> {
  if (!agents) return [];
  if (Array.isArray(agents)) return (agents as readonly Agent[]).map((agent) => [agent.name, agent]);
  return Object.entries(agents as Readonly<Record<string, Agent | AgentEntryOptions>>);
}

/** The sessions and services of the app's agents. */
function agentServices(app: PlaygroundApp, options: RegistryOptions): AgentServices {
  const sessions = options.sessions ?? {
    service: new MemorySessionService(),
    branches: new SessionBranches(new Database(':memory:')),
  };
  return {
    appName: app.session?.appName ?? 'playground',
    userId: app.session?.userId ?? 'playground-user',
    sessions: sessions.service,
    branches: sessions.branches,
    ...(app.artifacts ? { artifacts: app.artifacts } : {}),
    ...(options.recalls ? { recalls: options.recalls } : {}),
  };
}
