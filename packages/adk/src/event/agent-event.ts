import type { UsageTotals } from '@weft/compose';
import type { JsonValue, Message, Usage } from '../message/message.js';
import type { MessageChunk } from '../message/message-chunk.js';

/** What an event asks of the runtime besides its content. Only actions on an agent's own path steer it. */
export interface EventActions {
  /** Session state changes, committed before the agent continues (`temp:` keys live for one invocation). */
  readonly stateDelta?: Readonly<Record<string, unknown>>;
  /** Artifact name → new version. */
  readonly artifactDelta?: Readonly<Record<string, number>>;
  /** Hand the conversation to this agent. */
  readonly transferTo?: string;
  /** End the invocation (the agent is done and wants no further turns of its own). */
  readonly exit?: boolean;
  /** Leave the enclosing loop agent. */
  readonly breakLoop?: boolean;
}

/** A pause waiting for a human (or other) answer. */
export interface AgentInterrupt {
  /** Stable id; answer it with `runner.resume({ decisions: { [id]: value } })`. */
  readonly id: string;
  /** What is asked: a tool approval request, a question, or a node's own value. */
  readonly value: unknown;
  /** Node path to where it paused (agents, tools and subgraphs nest). */
  readonly path: readonly string[];
}

/**
 * One event of an agent run, as the Runner yields it and the SessionService stores it. Partial events
 * (streaming chunks) are forwarded but never stored.
 */
export interface AgentEvent {
  /** Unique, time-sortable id. */
  readonly id: string;
  /** The invocation (one `runner.run` or `runner.resume` call) it belongs to. */
  readonly invocationId: string;
  /** Who produced it: an agent name, `user`, or a tool's agent. */
  readonly author: string;
  /** Agent path, outermost first, for nested and parallel agents (e.g. `research.web`). */
  readonly branch?: string;
  /** Milliseconds since the epoch. */
  readonly timestamp: number;
  /** A streaming chunk: forwarded to listeners, never committed. */
  readonly partial?: boolean;
  /** A complete message (user input, assistant reply with tool calls, tool result). */
  readonly message?: Message;
  /** A streaming chunk of an assistant message (partial events). */
  readonly chunk?: MessageChunk;
  readonly actions: EventActions;
  /** Model usage of this event's model call. */
  readonly usage?: Usage;
  /** The model that made this event's call (`openai:gpt-4o-mini`), set with `usage`: a price table gives its cost. */
  readonly model?: string;
  /**
   * On the `turnComplete` event: the invocation's model calls added up, in total, per model and per
   * agent (the event's `author`); absent when no call reported usage.
   */
  readonly usageTotals?: UsageTotals;
  /**
   * On a reply asking for tools: the ids of its calls to long-running tools (Google ADK's
   * `long_running_tool_ids`) — their results come later, as tool messages the client sends.
   */
  readonly longRunningToolIds?: readonly string[];
  /** Set when the run paused; answer with `runner.resume`. */
  readonly interrupts?: readonly AgentInterrupt[];
  /** Set when the run failed. */
  readonly error?: { readonly code: string; readonly message: string };
  /** True on the last event of an invocation. */
  readonly turnComplete?: boolean;
  /**
   * Where the event was committed (Runner option `recordCheckpoints`): the last root checkpoint saved
   * before it (absent before the thread's first one). Its effects are in the checkpoint written after it.
   */
  readonly checkpointId?: string;
  /** What middleware reports (e.g. `{ type: 'context-compaction', data }`); stored like any event. */
  readonly custom?: { readonly type: string; readonly data: JsonValue };
}

/**
 * An event as agent nodes report it (`reportAgentEvent`): the Runner fills in id, invocation and time
 * when it commits it.
 */
export type AgentEventInit = Pick<AgentEvent, 'author' | 'actions'> &
  Partial<Pick<AgentEvent, 'branch' | 'message' | 'usage' | 'custom' | 'timestamp' | 'longRunningToolIds'>>;
