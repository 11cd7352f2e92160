import { z } from 'zod';
import type { Message } from '../message/message.js';
import { messagesReducer } from '../message/messages-reducer.js';

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
  /** Why the last tool step ends the agent: a return-directly tool or the exit tool ran. */
  finish: z.enum(['returnDirectly', 'exit']).optional(),
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
export const agentReducers = { messages: messagesReducer } as const;
