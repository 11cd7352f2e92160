import { resolve } from 'node:path';
import type { Agent } from '@weft/adk';
import { type EvalSet, loadEvalSet } from '@weft/eval';
import { isAgent, type PlaygroundApp } from '../define-app.ts';

/** An eval set of the app: loaded, or the reason it could not be. */
export type LoadedEvalSet =
  | { readonly id: string; readonly set: EvalSet }
  | { readonly id: string; readonly problem: string };

/**
 * The app's eval sets by id: given inline, or as file paths (read now, relative to `cwd`, so an edited
 * file is picked up on the next listing).
 */
export async function loadAppEvals(app: PlaygroundApp, cwd = process.cwd()): Promise<LoadedEvalSet[]> {
  return Promise.all(
    Object.entries(app.evals ?? {}).map(async ([id, value]): Promise<LoadedEvalSet> => {
      if (typeof value !== 'string') return { id, set: value };
      try {
        return { id, set: await loadEvalSet(resolve(cwd, value)) };
      } catch (error) {
        return { id, problem: error instanceof Error ? error.message : String(error) };
      }
    }),
  );
}

/** The app's agents by the id the playground lists them under. */
export function appAgents(app: PlaygroundApp): ReadonlyMap<string, Agent> {
  const agents = new Map<string, Agent>();
  const list = app.agents;
  if (Array.isArray(list)) for (const agent of list as readonly Agent[]) agents.set(agent.name, agent);
  else
    for (const [id, value] of Object.entries(list ?? {})) {
      const agent = isAgent(value) ? value : (value as { agent: Agent }).agent;
      if (isAgent(agent)) agents.set(id, agent);
    }
  return agents;
}
