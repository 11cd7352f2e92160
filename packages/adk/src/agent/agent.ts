import type { Checkpointer } from '@weft/compose';
import type { AgentGraph } from './agent-graph.js';

/**
 * Anything that runs as an agent: a chat-model agent, a workflow agent (sequential, parallel, loop) or a
 * team. Every agent compiles to a graph over the shared agent state, so any agent can be a sub-agent of
 * any other, drawn, checkpointed per step and resumed.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const researcher = new ChatModelAgent({ name: 'researcher', model: new ScriptedChatModel(['Facts: …']) });
 * const writer = new ChatModelAgent({ name: 'writer', model: new ScriptedChatModel(['A draft.']) });
 * const agents: Agent[] = [researcher, writer];
 * for (const agent of agents) console.log(agent.name, agent.compile().toMermaid());
 * ```
 */
export interface Agent<TName extends string = string> {
  /** Unique within a team: letters, digits, `_` or `-`. */
  readonly name: TName;
  /** What it does (shown to agents choosing whom to hand work to). */
  readonly description: string;
  /** Agents this one contains or may transfer to. */
  readonly subAgents: readonly Agent[];
  /** Its graph, compiled with a checkpointer (cached per checkpointer) or without. */
  compile(options?: { readonly checkpointer?: Checkpointer }): AgentGraph;
}
