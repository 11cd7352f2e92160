import type { RunEventBase } from './run-event-base.js';

/** Where a node's own event happened (filled in by `ctx.report`). */
interface NodeEventBase extends RunEventBase {
  /** The superstep of the task that reported it. */
  readonly step: number;
  /** The node that reported it. */
  readonly node: string;
  /** The task that reported it. */
  readonly taskId: string;
  /** The agent the node belongs to, when an agent reported it. */
  readonly agent?: string;
}

/**
 * Token counts of one model call: `inputTokens` counts every input token (cached ones included),
 * `outputTokens` every output token (reasoning included); optional counts are absent when the provider
 * did not report them.
 *
 * @example
 * ```ts
 * const usage: TokenUsage = { inputTokens: 1_200, outputTokens: 300, totalTokens: 1_500 };
 * ```
 */
export interface TokenUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly totalTokens: number;
  /** Input tokens read from the provider's prompt cache. */
  readonly cachedInputTokens?: number;
  /** Input tokens written to the provider's prompt cache. */
  readonly cacheWriteTokens?: number;
  /** Output tokens spent on reasoning. */
  readonly reasoningTokens?: number;
}

/**
 * What a model call was sent: the messages (instruction first), the names of the tools offered, and the
 * call options (temperature, tool choice, response format...; never the abort signal).
 *
 * @example
 * ```ts
 * const request: ModelCallRequest = { messages: [{ role: 'user', content: 'Hi' }], tools: ['search'], options: {} };
 * ```
 */
export interface ModelCallRequest {
  readonly messages: readonly unknown[];
  readonly tools: readonly string[];
  readonly options: Readonly<Record<string, unknown>>;
}

/**
 * The agent a compiled graph runs, as `compile({ agent })` declares it: `run-start` (for a root run) and
 * the `step-start` events of a nested run carry it, so a subscriber (tracing's `invoke_agent` span) can
 * tell an agent's run from any graph's. Typed structurally, like every agent field here.
 *
 * @example
 * ```ts
 * const info: GraphAgentInfo = { name: 'support', description: 'Answers customers', model: 'gpt-4o-mini', provider: 'openai' };
 * ```
 */
export interface GraphAgentInfo {
  readonly name: string;
  readonly description?: string;
  /** The id of the model the agent asks (the one sent to the provider), when it has one model. */
  readonly model?: string;
  /** That model's provider, as the GenAI conventions name it (`openai`, `anthropic`, `gcp.gemini`…). */
  readonly provider?: string;
}

/**
 * One call to a chat model, reported once it settled by the innermost model wrapper of the node that
 * made it (so a retrying or fallback wrapper reports each attempt the model saw once, as made).
 *
 * @example
 * ```ts
 * function logModelCalls(event: RunEvent): void {
 *   if (event.type === 'model-call') console.log(event.model, event.usage?.totalTokens, event.durationMs);
 * }
 * ```
 */
export interface ModelCallEvent extends NodeEventBase {
  readonly type: 'model-call';
  /** The model's name (e.g. `openai:gpt-4o-mini`). */
  readonly model: string;
  /** The provider the call went to, as the GenAI conventions name it (`openai`, `anthropic`…), when known. */
  readonly provider?: string;
  /** The model id sent to the provider (`gpt-4o-mini`), when the model says. */
  readonly requestModel?: string;
  /** The model id the provider says answered (`gpt-4o-mini-2024-07-18`), when the reply says. */
  readonly responseModel?: string;
  /** What was sent. */
  readonly request: ModelCallRequest;
  /** The reply (an assistant message) when the call succeeded. */
  readonly response?: unknown;
  /** Token counts, when the model reported them. */
  readonly usage?: TokenUsage;
  /** Whether the reply was streamed token by token (`chunk` events carry the tokens). */
  readonly streamed: boolean;
  /** When the call started (ms since the epoch); `ts` is when it settled. */
  readonly startedAt: number;
  readonly durationMs: number;
  /** Why the call failed (an abort included); absent when it succeeded. */
  readonly error?: Error;
}

/**
 * A tool call started (its arguments already parsed by the model's reply, not yet validated).
 *
 * @example
 * ```ts
 * function logToolCalls(event: RunEvent): void {
 *   if (event.type === 'tool-start') console.log(event.tool, event.toolCallId, event.arguments);
 * }
 * ```
 */
export interface ToolStartEvent extends NodeEventBase {
  readonly type: 'tool-start';
  readonly tool: string;
  readonly toolCallId: string;
  /** The arguments as the model sent them (usually a JSON string). */
  readonly arguments: unknown;
}

/**
 * A tool call ended: `status` `error` for a failure the model is told about (bad arguments, a throw, a
 * timeout, an unknown tool, an abort), with the tool message it reads as `result`.
 *
 * @example
 * ```ts
 * function warnFailedTools(event: RunEvent): void {
 *   if (event.type === 'tool-end' && event.status === 'error') console.warn(event.tool, event.result);
 * }
 * ```
 */
export interface ToolEndEvent extends NodeEventBase {
  readonly type: 'tool-end';
  readonly tool: string;
  readonly toolCallId: string;
  readonly status: 'success' | 'error';
  /** The tool message answering the call. */
  readonly result: unknown;
  readonly durationMs: number;
  /**
   * Why the call failed, when it failed with an error: what the tool threw, or the runtime's own error
   * (a timeout, bad arguments, an unknown tool). Absent for success and for an error result the tool
   * returned without throwing.
   */
  readonly error?: Error;
}

/**
 * What an agent asks of the runtime with an event (ADK's event actions), typed structurally so compose
 * needs no agent package: session state changes, artifact versions, a transfer, an exit, a loop break.
 */
export interface AgentEventActions {
  /** Session state changes, committed before the agent continues. */
  readonly stateDelta?: Readonly<Record<string, unknown>>;
  /** Artifact name → new version. */
  readonly artifactDelta?: Readonly<Record<string, number>>;
  /** Hand the conversation to this agent. */
  readonly transferTo?: string;
  /** End the invocation. */
  readonly exit?: boolean;
  /** Leave the enclosing loop agent. */
  readonly breakLoop?: boolean;
}

/**
 * The body of an agent's event as its node reports it (the Runner adds id, invocation and time when it
 * commits it): who wrote it, its agent path, the message, the actions, usage, a middleware report.
 *
 * @example
 * ```ts
 * const body: AgentEventBody = { author: 'helper', branch: 'team.helper', actions: { stateDelta: { topic: 'bees' } } };
 * ```
 */
export interface AgentEventBody {
  /** An agent name (or `user`). */
  readonly author: string;
  /** Agent path, outermost first, joined with `.`, for nested agents. */
  readonly branch?: string;
  /** A complete message (an assistant reply, tool results). */
  readonly message?: unknown;
  readonly actions: AgentEventActions;
  /** Token counts of the model call behind this event. */
  readonly usage?: TokenUsage;
  /** The model that made that call (`openai:gpt-4o-mini`), set with `usage`: a price table gives its cost. */
  readonly model?: string;
  /** What middleware reports (e.g. `{ type: 'context-compaction', data }`). */
  readonly custom?: { readonly type: string; readonly data: unknown };
  /** When it happened (default: when the Runner commits it). */
  readonly timestamp?: number;
}

/**
 * An agent's event on the run's stream (ADR 014): a reply, tool results, state changes or a hand-off.
 * A Runner subscribed with `observe` commits it to its session before the agent continues: the node
 * reporting it awaits the subscriber.
 *
 * @example
 * ```ts
 * function logAgentState(event: RunEvent): void {
 *   if (event.type === 'agent' && event.event.actions.stateDelta) console.log(event.agent, event.event.actions.stateDelta);
 * }
 * ```
 */
export interface AgentNodeEvent extends NodeEventBase {
  readonly type: 'agent';
  readonly event: AgentEventBody;
}

/** The events a node reports itself with `ctx.report` (the engine reports the others). */
export type NodeEvent = ModelCallEvent | ToolStartEvent | ToolEndEvent | AgentNodeEvent;

/** Fields `ctx.report` fills in: run, time, path, step, node and task. */
type FilledIn = 'runId' | 'ts' | 'path' | 'step' | 'node' | 'taskId';

/**
 * A node event as a node reports it: `ctx.report` adds the run id, the time, the path, the step, the
 * node and the task.
 *
 * @example
 * ```ts
 * const app = new StateGraph(z.object({ query: z.string(), answer: z.string().optional() }))
 *   .addNode('search', async (state, ctx) => {
 *     const start: NodeEventInit = { type: 'tool-start', tool: 'search', toolCallId: 'c1', arguments: JSON.stringify(state) };
 *     await ctx.report(start); // stream consumers see it with the node's run, step and path filled in
 *     return { answer: `results for ${state.query}` };
 *   })
 *   .addEdge(START, 'search')
 *   .addEdge('search', END)
 *   .compile();
 * await app.invoke({ query: 'bees' });
 * ```
 */
export type NodeEventInit = NodeEvent extends infer TEvent
  ? TEvent extends NodeEvent
    ? Omit<TEvent, FilledIn>
    : never
  : never;
