import type { Checkpointer } from '@weft/compose';
import type { Agent } from '../agent/agent.js';
import type { AgentGraph } from '../agent/agent-graph.js';
import { AgentGraphCache, checkAgentName, checkSubAgents } from './workflow-graph.js';

/** What every workflow agent (sequential, parallel, loop) takes. */
export interface WorkflowAgentOptions<TName extends string, TSubAgents extends readonly Agent[]> {
  readonly name: TName;
  readonly description?: string;
  readonly subAgents: TSubAgents;
}

/**
 * The shared part of the workflow agents: a checked name and sub-agent list, and a graph compiled once
 * per checkpointer. Subclasses only say how their graph is built.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * import type { Checkpointer } from '@weft/compose';
 * // A workflow agent that just runs its first sub-agent's graph.
 * class FirstOnly extends WorkflowAgent {
 *   constructor(subAgents: readonly Agent[]) {
 *     super({ name: 'first_only', subAgents }, []);
 *   }
 *   protected build(checkpointer?: Checkpointer): AgentGraph {
 *     const [first] = this.subAgents;
 *     if (!first) throw new AdkError('INVALID_ARGUMENT', 'first_only needs a sub-agent');
 *     return first.compile(checkpointer ? { checkpointer } : {});
 *   }
 * }
 * const once = new FirstOnly([new ChatModelAgent({ name: 'helper', model: new ScriptedChatModel(['Hi!']) })]);
 * ```
 */
export abstract class WorkflowAgent<
  const TName extends string = string,
  TSubAgents extends readonly Agent[] = readonly Agent[],
> implements Agent<TName>
{
  readonly name: TName;
  readonly description: string;
  readonly subAgents: TSubAgents;
  readonly #graphs = new AgentGraphCache();

  /** @throws AdkError `INVALID_ARGUMENT` for a bad name, no sub-agents, or a sub-agent named like a control node. */
  protected constructor(options: WorkflowAgentOptions<TName, TSubAgents>, controlNodes: readonly string[]) {
    checkAgentName(options.name);
    checkSubAgents(options.name, options.subAgents, controlNodes);
    this.name = options.name;
    this.description = options.description ?? '';
    this.subAgents = options.subAgents;
  }

  /** Compiles the agent's graph (cached per checkpointer). */
  compile(options: { readonly checkpointer?: Checkpointer } = {}): AgentGraph {
    return this.#graphs.get(options.checkpointer, (checkpointer) => this.build(checkpointer));
  }

  /** Builds the agent's graph. */
  protected abstract build(checkpointer?: Checkpointer): AgentGraph;
}
