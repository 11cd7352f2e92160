import type { CompiledGraph } from '@weft/compose';
import type { Message } from '../message/message.js';
import type { AgentState } from './agent-state.js';

/** The input an agent graph takes for one turn. */
export interface AgentInput {
  /** The new user message (a string becomes a user message). */
  readonly input?: Message | string;
}

/** Node names of the ReAct graph. */
export type AgentNode = 'init' | 'model' | 'cancelAfterModel' | 'tools' | 'cancelAfterTools' | 'afterAgent';

/**
 * The compiled graph of an agent: the ReAct graph of a chat-model agent (`AgentGraph<AgentNode>`), or
 * the graph of a workflow agent or team. Every one runs over the agent state.
 */
export type AgentGraph<TNodes extends string = string> = CompiledGraph<
  AgentInput & Partial<AgentState>,
  AgentState,
  TNodes,
  Partial<AgentState>
>;
