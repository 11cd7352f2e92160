import { z } from 'zod';
import type { Message } from '../message/message.js';
import { messagesReducer } from '../message/messages-reducer.js';

/** A `stateDelta` update that clears the delta (written by `init` at the start of an invocation). */
export const RESET_DELTA = { __reset__: true } as const;

/**
 * Merges state-delta updates key by key (in task order, so of two parallel branches the later one in
 * declaration order wins); {@link RESET_DELTA} clears it.
 */
export function deltaReducer(
  current: Readonly<Record<string, unknown>> | undefined,
  update: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  if (update.__reset__ === true) {
    const { __reset__: _, ...rest } = update;
    return rest;
  }
  return { ...current, ...update };
}

/** The state of an agent graph: its conversation and this invocation's bookkeeping. */
export const agentStateSchema = z.object({
  /** The conversation (merged by message id). The instruction is not stored here: it is rendered per call. */
  messages: z
    .array(z.custom<Message>((value) => typeof value === 'object' && value !== null && 'role' in value))
    .default([]),
  /** Model calls in the current invocation (checked against `maxIterations`). */
  iterations: z.number().default(0),
  /** Session state changes made during the invocation (tool writes, `outputKey`). */
  stateDelta: z.record(z.string(), z.unknown()).default({}),
  /** The agent's final output (text, a returned-directly tool result, or the structured output). */
  output: z.unknown().optional(),
  /** Why the last tool step ends the agent: a return-directly tool, the exit tool, a transfer or a loop break. */
  finish: z.enum(['returnDirectly', 'exit', 'transfer', 'breakLoop']).optional(),
  /** The agent the conversation is handed to (set by `transfer_to_agent`). */
  transferTo: z.string().optional(),
  /** Set by `exit_loop`; the nearest enclosing loop agent consumes it. */
  breakLoop: z.boolean().optional(),
  /** The agent that last held the conversation (multi-agent teams route the next turn to it). */
  activeAgent: z.string().optional(),
  /** Iterations of each loop agent in the current invocation. */
  loops: z.record(z.string(), z.number()).default({}),
  /** The new user message of a turn, consumed by `init`. */
  input: z
    .union([
      z.string(),
      z.custom<Message>((value) => typeof value === 'object' && value !== null && 'role' in value),
    ])
    .optional(),
});

/** The state of an agent graph. */
export type AgentState = z.infer<typeof agentStateSchema>;

/** Reducers of the agent state. */
export const agentReducers = {
  messages: messagesReducer,
  stateDelta: deltaReducer,
  loops: deltaReducer,
} as const;
