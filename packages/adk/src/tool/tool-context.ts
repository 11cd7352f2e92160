import type { NodeContext, Store } from '@weft/compose';
import type { ToolArtifacts } from '../artifact/tool-artifacts.js';
import type { SessionMemory } from '../memory/session-memory.js';
import type { Message } from '../message/message.js';
import type { RunIdentity } from '../session/run-identity.js';
import type { SessionState } from './session-state.js';

/**
 * What a tool's `execute` receives besides its arguments.
 *
 * @example
 * ```ts
 * const search = tool({
 *   name: 'search',
 *   description: 'Search the web',
 *   parameters: z.object({ query: z.string() }),
 *   async execute({ query }, context) {
 *     context.emit({ progress: 'searching' });
 *     const response = await fetch(`https://example.com/?q=${query}`, { signal: context.signal });
 *     return response.text();
 *   },
 * });
 * ```
 */
export interface ToolContext {
  /** The id of the tool call being answered. */
  readonly toolCallId: string;
  /** The name of the tool being called. */
  readonly toolName: string;
  /** Fires when the run is cancelled, the tool timed out, or another call failed with `onToolError: 'throw'`. */
  readonly signal: AbortSignal;
  /** Publishes progress or custom data to whoever runs the tools (`onEmit` of `executeToolCalls`). */
  emit(data: unknown): void;
  /** The session state the tool may read and change. */
  readonly state: SessionState;
  /**
   * The graph node running the tool, when an agent's tool node runs it: lets a tool run a graph nested
   * under that node (`nodeContext.runSubgraph`), as `AgentTool` does. Absent outside a graph.
   */
  readonly nodeContext?: NodeContext;
  /** The conversation the call was made in (ending with the assistant message holding the call), when an agent runs the tool. */
  readonly messages?: readonly Message[];
  /**
   * The long-term store of the graph running the tool — the Runner's `store`, the run's `{ store }` or
   * `compile({ store })` — when there is one: the same object as `nodeContext.store`.
   */
  readonly store?: Store;
  /**
   * The artifacts of the session (when the Runner has an `artifactService`): saves made here are
   * recorded in the tool event's `actions.artifactDelta`.
   */
  readonly artifacts?: ToolArtifacts;
  /** Who the run is for — app, user, session and tenant ids — when a Runner runs the tool. */
  readonly run?: RunIdentity;
  /**
   * The Runner's `memoryService` bound to the session's user (`search(query)`), when it has one —
   * Google ADK's `tool_context.search_memory`.
   */
  readonly memory?: SessionMemory;
  /**
   * For a tool made with `effect: true`: the call's idempotency key (`weft-` and 40 hex digits), the same
   * on every re-run of the call — pass it to the API the tool calls (Stripe's `Idempotency-Key`, an
   * email provider's message id) so a call repeated before its result was recorded is applied once.
   */
  readonly idempotencyKey?: string;
}
