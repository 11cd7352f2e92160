import type { Agent } from '@weft/adk';
import { EvaluationError } from '../evaluation-error.js';
import type { AnyGraph } from '../graph-target.js';

/** True for anything shaped like an adk `Agent` (works across duplicate package copies). */
export function isAgentLike(value: unknown): value is Agent {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Agent).name === 'string' &&
    typeof (value as Agent).compile === 'function' &&
    Array.isArray((value as Agent).subAgents)
  );
}

/**
 * Finds the agents a module offers: its exports that are agents, and the `agents` of its default
 * export (a playground app: an array or a record of agents or `{ agent }` entries), by name.
 */
export function agentsOf(module: Readonly<Record<string, unknown>>): Map<string, Agent> {
  const found = new Map<string, Agent>();
  const add = (key: string, value: unknown): void => {
    const agent = isAgentLike(value)
      ? value
      : isAgentLike((value as { agent?: unknown } | null)?.agent)
        ? (value as { agent: Agent }).agent
        : undefined;
    if (agent && !found.has(key)) found.set(key, agent);
  };
  for (const [key, value] of Object.entries(module)) if (key !== 'default') add(key, value);
  const app = module.default as { agents?: unknown } | undefined;
  const agents = isAgentLike(app) ? [app] : app?.agents;
  if (Array.isArray(agents)) for (const agent of agents) add((agent as Agent).name, agent);
  else if (agents && typeof agents === 'object')
    for (const [key, value] of Object.entries(agents)) add(key, value);
  return found;
}

/**
 * Picks the agent to evaluate: by export/app key or agent name, or the only one when there is one.
 *
 * @throws {EvaluationError} `TARGET_NOT_FOUND` listing the agents the module offers.
 */
export function pickAgent(
  module: Readonly<Record<string, unknown>>,
  name: string | undefined,
  source: string,
): Agent {
  const agents = agentsOf(module);
  if (name !== undefined) {
    const agent = agents.get(name) ?? [...agents.values()].find((a) => a.name === name);
    if (agent) return agent;
  } else if (agents.size === 1) {
    return [...agents.values()][0] as Agent;
  }
  const list = [...agents.keys()].join(', ') || 'none';
  throw new EvaluationError(
    'TARGET_NOT_FOUND',
    name === undefined
      ? `${source} offers ${agents.size} agents (${list}); choose one with --agent`
      : `${source} has no agent "${name}"; it offers: ${list}`,
  );
}

/** True for a compiled graph, recognised by shape (works across duplicate package copies). */
export function isGraphLike(value: unknown): value is AnyGraph {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<Record<keyof AnyGraph, unknown>>;
  return (
    typeof candidate.spec === 'object' &&
    typeof candidate.run === 'function' &&
    typeof candidate.withOptions === 'function' &&
    typeof candidate.getState === 'function'
  );
}

/**
 * Finds the compiled graphs a module offers: its exports that are graphs, and the `graphs` of its
 * default export (a playground app: graphs or `{ graph }` entries by id), by name.
 */
export function graphsOf(module: Readonly<Record<string, unknown>>): Map<string, AnyGraph> {
  const found = new Map<string, AnyGraph>();
  const add = (key: string, value: unknown): void => {
    const graph = isGraphLike(value)
      ? value
      : isGraphLike((value as { graph?: unknown } | null)?.graph)
        ? (value as { graph: AnyGraph }).graph
        : undefined;
    if (graph && !found.has(key)) found.set(key, graph);
  };
  for (const [key, value] of Object.entries(module)) if (key !== 'default') add(key, value);
  const app = module.default as { graphs?: unknown } | undefined;
  if (isGraphLike(app)) add(app.name, app);
  else if (app?.graphs && typeof app.graphs === 'object')
    for (const [key, value] of Object.entries(app.graphs)) add(key, value);
  return found;
}

/**
 * Picks the graph to evaluate by export/app key or graph name.
 *
 * @throws {EvaluationError} `TARGET_NOT_FOUND` listing the graphs the module offers.
 */
export function pickGraph(module: Readonly<Record<string, unknown>>, name: string, source: string): AnyGraph {
  const graphs = graphsOf(module);
  const graph = graphs.get(name) ?? [...graphs.values()].find((g) => g.name === name);
  if (graph) return graph;
  throw new EvaluationError(
    'TARGET_NOT_FOUND',
    `${source} has no graph "${name}"; it offers: ${[...graphs.keys()].join(', ') || 'none'}`,
  );
}
