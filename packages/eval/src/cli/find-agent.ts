import type { Agent } from '@weft/adk';
import { EvaluationError } from '../evaluation-error.js';

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
