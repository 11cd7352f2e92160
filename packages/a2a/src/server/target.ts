import { type Agent, MemorySessionService, Runner, type SessionService } from '@weft/adk';
import { type Checkpointer, MemoryCheckpointer } from '@weft/compose';
import { WeftA2aError } from '../errors/weft-a2a-error.js';
import { type A2aSkill, agentSkills } from './agent-skills.js';
import { agentTurns } from './agent-turns.js';
import { type AnyCompiledGraph, graphTurns } from './graph-turns.js';
import type { TurnRunner } from './turn.js';

/**
 * What an A2A server serves: an agent (run through a `Runner` made for it, over `sessionService` and
 * `checkpointer`), a `Runner` you made, or a compiled graph (run on `checkpointer`). Durable stores make
 * tasks survive a restart; the defaults keep everything in memory.
 *
 * @example
 * ```ts
 * import { SqliteCheckpointer, SqliteSessionService } from '@weft/store-sqlite';
 * declare const agent: import('@weft/adk').Agent;
 * const target: A2aTarget = {
 *   agent,
 *   sessionService: new SqliteSessionService({ filename: 'agent.db' }),
 *   checkpointer: new SqliteCheckpointer({ filename: 'agent.db' }),
 * };
 * ```
 */
export type A2aTarget =
  | {
      readonly agent: Agent;
      readonly sessionService?: SessionService;
      readonly checkpointer?: Checkpointer;
      /** The Runner's app name (default: the agent's name). */
      readonly appName?: string;
      readonly runner?: undefined;
      readonly graph?: undefined;
    }
  | { readonly runner: Runner; readonly agent?: undefined; readonly graph?: undefined }
  | {
      readonly graph: AnyCompiledGraph;
      readonly checkpointer?: Checkpointer;
      /** What the graph does (its card's description and skill). */
      readonly description?: string;
      /**
       * The name it is served under (default: the graph's): the card's name and skill, and what scopes
       * its tasks in the task store and its threads in the checkpointer — give each graph sharing those
       * stores its own (`@weft/server` uses the graph id).
       */
      readonly name?: string;
      readonly agent?: undefined;
      readonly runner?: undefined;
    };

/** A target with what the card says about it and how its turns run. */
export interface ServedTarget {
  readonly name: string;
  readonly description: string;
  readonly skills: readonly A2aSkill[];
  readonly turns: TurnRunner;
}

/**
 * The served target of a handler's options.
 *
 * @throws WeftA2aError `INVALID_ARGUMENT` unless exactly one of `agent`, `runner` and `graph` is given.
 */
export function targetOf(options: A2aTarget): ServedTarget {
  const given = [options.agent, options.runner, options.graph].filter((v) => v !== undefined).length;
  if (given !== 1)
    throw new WeftA2aError('INVALID_ARGUMENT', 'serve exactly one of `agent`, `runner` or `graph`');
  if (options.graph) {
    const graph = options.graph;
    const name = options.name ?? graph.name;
    if (name === '') throw new WeftA2aError('INVALID_ARGUMENT', "the graph's `name` may not be empty");
    const description = options.description ?? `Runs the Weft graph "${name}".`;
    return {
      name,
      description,
      skills: [{ id: name, name: 'graph', description, tags: ['graph'] }],
      turns: graphTurns(graph, options.checkpointer ?? new MemoryCheckpointer(), name),
    };
  }
  const runner =
    options.runner ??
    new Runner({
      agent: options.agent as Agent,
      sessionService: options.sessionService ?? new MemorySessionService(),
      ...(options.checkpointer ? { checkpointer: options.checkpointer } : {}),
      ...(options.appName ? { appName: options.appName } : {}),
    });
  const agent = options.agent ?? runner.agent;
  return {
    name: agent.name,
    description: agent.description || `The Weft agent "${agent.name}".`,
    skills: agentSkills(agent),
    turns: agentTurns(runner),
  };
}
