import type { AgentEventInit } from '../event/agent-event.js';
import type { MemoryService } from '../memory/memory-service.js';
import type { AssistantMessage, Message, ToolCall, ToolMessage } from '../message/message.js';
import type { MessagesUpdate } from '../message/messages-reducer.js';
import type { ChatModel, ChatModelCallOptions } from '../model/chat-model.js';
import type { SessionKey } from '../session/session.js';
import type { SessionState } from '../tool/session-state.js';
import type { AnyTool } from '../tool/tool.js';
import type { AgentState } from './agent-state.js';

/** What is about to be sent to the model; `beforeModel` may return a changed copy. */
export interface ModelRequest {
  /** The messages sent (instruction first), a copy: changing it changes only this call. */
  readonly messages: readonly Message[];
  /** The tools offered for this call. */
  readonly tools: readonly AnyTool[];
  /** Call options (tool choice, response format, temperature...). */
  readonly options: ChatModelCallOptions;
  /** The model this call goes to (default: the agent's), e.g. a phase's own model. */
  readonly model?: ChatModel;
}

/**
 * What `beforeAgent` returns to skip the agent: its reply (text or an assistant message), committed as
 * the agent's answer; the model is not called. The first middleware that skips wins.
 *
 * @example
 * ```ts
 * const isNight = () => new Date().getHours() < 8;
 * const closed: AgentMiddleware = { beforeAgent: () => (isNight() ? { skip: 'We are closed until 8am.' } : undefined) };
 * ```
 */
export interface AgentSkip {
  readonly skip: string | AssistantMessage;
}

/**
 * What `beforeTool` returns to answer a call without running its tool: `skip` becomes the call's result
 * (a string as text, a `toolResult(...)` as it is, anything else as JSON).
 *
 * @example
 * ```ts
 * const cached = new Map<string, unknown>([['{"city":"Paris"}', 'Sunny in Paris (cached)']]);
 * const cache: AgentMiddleware = {
 *   beforeTool: (call) => (cached.has(call.arguments) ? { skip: cached.get(call.arguments) } : undefined),
 * };
 * ```
 */
export interface ToolSkip {
  readonly skip: unknown;
}

/** What every hook receives. It is a per-run copy: mutating it never changes the agent. */
export interface MiddlewareContext {
  readonly agentName: string;
  /** The agent graph's state at this point (read-only). */
  readonly state: Readonly<AgentState>;
  /** Session state view (reads include this invocation's changes; writes become a state delta). */
  readonly session: SessionState;
  /** Model calls so far in this invocation. */
  readonly iteration: number;
  /** Persist a change to the conversation history (e.g. a compaction summary): stored in graph state. */
  updateHistory(update: MessagesUpdate): void;
  /** Reports an agent event on the run's stream, committed by a Runner before it resolves (model hooks only). */
  readonly emit?: (event: AgentEventInit) => Promise<void>;
  /** Fires when the run is cancelled (model hooks only): pass it to any model or I/O a hook starts. */
  readonly signal?: AbortSignal;
  /** The session the agent runs in (app, user and session ids); absent outside a Runner. */
  readonly sessionKey?: SessionKey;
  /**
   * Wraps a model a hook calls itself (a summarizer, a judge) so its calls are part of the run: each is a
   * `model-call` event of this agent, counted in usage totals and costs and traced like the agent's own.
   */
  readonly reportedModel?: (model: ChatModel) => ChatModel;
  /** The Runner's `memoryService`, when it has one (`recall()` and `memorize()` use it by default). */
  readonly memory?: MemoryService;
}

/**
 * Harness hooks around an agent. Order: the first registered middleware is the outermost — its
 * `before*` hooks run first, its `after*` hooks last, and its `wrap*` hooks wrap all the others.
 *
 * @example
 * ```ts
 * const logging: AgentMiddleware = {
 *   name: 'logging',
 *   beforeModel: (request) => { console.log(request.messages.length, 'messages'); },
 *   afterTool: (result) => { console.log('tool', result.name); },
 * };
 * ```
 */
export interface AgentMiddleware {
  readonly name?: string;
  /** May skip the agent: `{ skip: reply }` makes `reply` its answer without calling the model. */
  beforeAgent?(ctx: MiddlewareContext): AgentSkip | undefined | void | Promise<AgentSkip | undefined | void>;
  /**
   * May replace the agent's output by returning `{ output }`: the new output is what `outputKey` stores,
   * and it is posted as the agent's reply (an assistant message: a string as text, anything else as
   * JSON), added to the history — Google ADK's `after_agent_callback` returning content.
   */
  afterAgent?(
    ctx: MiddlewareContext,
    output: unknown,
  ):
    | { readonly output: unknown }
    | undefined
    | void
    | Promise<{ readonly output: unknown } | undefined | void>;
  beforeModel?(
    request: ModelRequest,
    ctx: MiddlewareContext,
  ): ModelRequest | undefined | void | Promise<ModelRequest | undefined | void>;
  afterModel?(
    response: AssistantMessage,
    ctx: MiddlewareContext,
  ): AssistantMessage | undefined | void | Promise<AssistantMessage | undefined | void>;
  wrapModel?(
    request: ModelRequest,
    next: (request: ModelRequest) => Promise<AssistantMessage>,
    ctx: MiddlewareContext,
  ): Promise<AssistantMessage>;
  /**
   * Runs before a tool call (after its approval): may return the call with changed `arguments` (the
   * hooks after it, `wrapToolCall` and the tool see that call) or `{ skip: result }` to answer the call
   * with `result` without running the tool (a string as text, a `toolResult(...)` as it is, anything else
   * as JSON) — Google ADK's `before_tool_callback`. The first hook that skips wins; `afterTool` hooks
   * still run on its result.
   */
  beforeTool?(
    call: ToolCall,
    ctx: MiddlewareContext,
  ): ToolCall | ToolSkip | undefined | void | Promise<ToolCall | ToolSkip | undefined | void>;
  wrapToolCall?(
    call: ToolCall,
    next: (call: ToolCall) => Promise<ToolMessage>,
    ctx: MiddlewareContext,
  ): Promise<ToolMessage>;
  /** May replace a call's tool message (Google ADK's `after_tool_callback`). */
  afterTool?(
    result: ToolMessage,
    call: ToolCall,
    ctx: MiddlewareContext,
  ): ToolMessage | undefined | void | Promise<ToolMessage | undefined | void>;
}

/** Runs `before*` hooks in order, each seeing the previous one's result. */
export async function runBefore<T>(
  middleware: readonly AgentMiddleware[],
  value: T,
  hook: (m: AgentMiddleware, value: T) => T | undefined | void | Promise<T | undefined | void>,
): Promise<T> {
  let current = value;
  for (const m of middleware) current = (await hook(m, current)) ?? current;
  return current;
}

/** Runs `after*` hooks innermost first (reverse registration order). */
export async function runAfter<T>(
  middleware: readonly AgentMiddleware[],
  value: T,
  hook: (m: AgentMiddleware, value: T) => T | undefined | void | Promise<T | undefined | void>,
): Promise<T> {
  let current = value;
  for (let i = middleware.length - 1; i >= 0; i--)
    current = (await hook(middleware[i] as AgentMiddleware, current)) ?? current;
  return current;
}

/** Composes `wrap*` hooks around a call: the first middleware is the outermost. */
export function composeWrap<TIn, TOut>(
  middleware: readonly AgentMiddleware[],
  pick: (
    m: AgentMiddleware,
  ) => ((input: TIn, next: (input: TIn) => Promise<TOut>) => Promise<TOut>) | undefined,
  inner: (input: TIn) => Promise<TOut>,
): (input: TIn) => Promise<TOut> {
  let call = inner;
  for (let i = middleware.length - 1; i >= 0; i--) {
    const wrap = pick(middleware[i] as AgentMiddleware);
    if (!wrap) continue;
    const next = call;
    call = (input) => wrap(input, next);
  }
  return call;
}
