import { isGraphPause, type NodeContext } from '@weft/compose';
import { RecordedArtifacts } from '../artifact/tool-artifacts.js';
import { eventId } from '../internal/event-id.js';
import { mapWithConcurrency } from '../internal/map-with-concurrency.js';
import { sessionMemory } from '../memory/session-memory.js';
import type { AssistantMessage, Message, ToolCall, ToolMessage } from '../message/message.js';
import { toolMessage } from '../message/message-constructors.js';
import { pendingOf, type ToolPendingRequest } from '../tool/pending-result.js';
import {
  abortedToolMessage,
  errorToolMessage,
  type RunToolCallOptions,
  runToolCall,
  toolFailureOf,
} from '../tool/run-tool-call.js';
import type { AnyTool } from '../tool/tool.js';
import { type AgentRunContext, agentContextOf, reportAgentEvent } from './agent-context.js';
import { type ToolApprovalRequest, toolDecisions } from './approval.js';
import { InvocationState } from './invocation-state.js';
import { type AgentMiddleware, composeWrap, type MiddlewareContext, runAfter } from './middleware.js';
import { awaitPendingCall, pendingRequest, pendingStatus } from './pending-calls.js';
import { RecordedState, replayWrites, type StateWrite } from './recorded-state.js';
import { middlewareOf } from './run-middleware.js';
import { runBeforeTool, skippedMessage } from './tool-hooks.js';

/** What a tool call leaves behind, remembered across a pause of its node (`ctx.once`). */
interface CallOutcome {
  readonly message: ToolMessage;
  readonly writes: readonly StateWrite[];
  /** Artifact versions the call saved (name → version). */
  readonly artifacts?: Readonly<Record<string, number>>;
}

/** Options of {@link createToolNode}. */
export interface ToolNodeOptions {
  readonly tools: readonly AnyTool[];
  /**
   * The tools that may run for the calls of one assistant reply (default: `tools`). Agents pass the
   * tools that reply's model call was offered, so a tool a middleware added runs and one it removed
   * does not.
   */
  readonly toolsFor?: (reply: AssistantMessage) => ReadonlyMap<string, AnyTool>;
  /** Who authors the tool events (default `tools`). */
  readonly author?: string;
  /** Calls run at once (default: all). */
  readonly concurrency?: number;
  readonly timeoutMs?: number;
  /** `return` (default): failures become tool messages; `throw`: they fail the node. */
  readonly onToolError?: 'return' | 'throw';
  readonly middleware?: readonly AgentMiddleware[];
  /** Builds the hook context (agents pass theirs). */
  readonly hookContext?: (
    state: ToolNodeState,
    session: InvocationState,
    run: AgentRunContext,
    node: NodeContext,
  ) => MiddlewareContext;
}

/** What the tool node reads: the conversation (and, in agents, the invocation's state delta). */
export interface ToolNodeState {
  readonly messages: readonly Message[];
  readonly stateDelta?: Readonly<Record<string, unknown>>;
}

/** What the tool node writes: the tool messages answering the calls, in call order. */
export interface ToolNodeUpdate {
  readonly messages: ToolMessage[];
}

/** What one tool step produced, for the agent's `tools` node. */
export interface ToolStepResult extends ToolNodeUpdate {
  /** Session state the tools wrote (merged into the invocation's delta by the agent state's reducer). */
  readonly stateDelta: Record<string, unknown>;
  /** Names of the tools that ran successfully, in call order. */
  readonly ran: string[];
}

/**
 * A node that runs the tool calls of the last assistant message — in parallel by default, results in
 * call order — usable in any state graph with a `messages` key (it writes `messages` only). Calls whose
 * tool `needsApproval` pause the run first (`ctx.interrupt` with a {@link ToolApprovalRequest}); rejected
 * calls are answered with a message the model reads. Tools get the node's context
 * (`context.nodeContext`) and the conversation (`context.messages`); their session-state writes are
 * kept only inside an agent (whose `tools` node commits them). When a tool's nested graph (an
 * `AgentTool`) pauses, the node pauses with every nested pause and commits nothing of the batch; on
 * resume the node runs again, and every call that had finished — a plain tool or a nested run — is
 * taken from the pause (`ctx.once`: its message and its state writes) instead of running again.
 *
 * @example
 * ```ts
 * const weather = tool({
 *   name: 'weather',
 *   description: 'The weather in a city',
 *   parameters: z.object({ city: z.string() }),
 *   execute: ({ city }) => `Sunny in ${city}`,
 * });
 * const graph = new StateGraph(z.object({ messages: z.array(z.custom<Message>()).default([]) }), {
 *   reducers: { messages: messagesReducer },
 * })
 *   .addNode('tools', createToolNode({ tools: [weather] }))
 *   .addEdge(START, 'tools')
 *   .addEdge('tools', END)
 *   .compile();
 * ```
 */
export function createToolNode(options: ToolNodeOptions) {
  const step = toolStep(options);
  return async (state: ToolNodeState, ctx: NodeContext): Promise<ToolNodeUpdate> => {
    const { messages } = await step(state, ctx);
    return { messages };
  };
}

/** The tool step of {@link createToolNode}, with the tools' state writes and which tools ran. */
export function toolStep(options: ToolNodeOptions) {
  const own = new Map(options.tools.map((t) => [t.name, t]));
  const author = options.author ?? 'tools';
  return async (state: ToolNodeState, ctx: NodeContext): Promise<ToolStepResult> => {
    const reply = lastReply(state.messages);
    const calls = reply?.toolCalls ?? [];
    const byName = reply && options.toolsFor ? options.toolsFor(reply) : own;
    const run = agentContextOf(ctx.config);
    const middleware = middlewareOf(options.middleware ?? [], run);
    const session = new InvocationState(run.sessionState, state.stateDelta ?? {}, run.temp);
    const decisions = askApproval(calls, byName, author, ctx);
    const hooks = options.hookContext?.(state, session, run, ctx);
    const runOptions = {
      tools: byName,
      signal: ctx.signal,
      timeoutMs: options.timeoutMs,
      state: session,
      emit: (call: ToolCall, data: unknown) => ctx.emit({ tool: call.name, toolCallId: call.id, data }),
      nodeContext: ctx,
      messages: state.messages,
      ...(run.session ? { run: run.session } : {}),
      ...(run.session && run.memory ? { memory: sessionMemory(run.memory, run.session, ctx.signal) } : {}),
    };
    const ran: string[] = [];
    const pauses: unknown[] = [];
    const artifactDelta: Record<string, number> = {};
    const service = run.artifacts;
    const sessionKey = run.session;
    // One call, start to finish (its after-hooks included), with its state writes recorded.
    const runCall = async (call: ToolCall): Promise<CallOutcome> => {
      const view = new RecordedState(session);
      const artifacts = service && sessionKey ? new RecordedArtifacts(service, sessionKey) : undefined;
      const wrapped = wrapCalls(
        { ...options, middleware },
        { ...runOptions, state: view, ...(artifacts ? { artifacts } : {}) },
        hooks,
      );
      const before = hooks ? await runBeforeTool(middleware, call, hooks) : { call };
      const startedAt = Date.now();
      const where = { agent: author, tool: call.name, toolCallId: call.id };
      await ctx.report({ type: 'tool-start', ...where, arguments: before.call.arguments });
      let result = before.skip
        ? skippedMessage(before.call, before.skip, options.onToolError ?? 'return')
        : await wrapped(before.call);
      // A long-running tool's pending result is its first status, for the model to read now.
      if (byName.get(call.name)?.longRunning) result = pendingStatus(result);
      if (hooks) result = await runAfter(middleware, result, (m, r) => m.afterTool?.(r, before.call, hooks));
      const failure = toolFailureOf(result);
      const message: ToolMessage = Object.assign({}, result, { id: result.id ?? eventId('msg'), author });
      await ctx.report({
        type: 'tool-end',
        ...where,
        status: message.status === 'error' ? 'error' : 'success',
        result: message,
        durationMs: Date.now() - startedAt,
        ...(failure ? { error: failure } : {}),
      });
      const saved = artifacts?.delta ?? {};
      return { message, writes: view.writes, ...(Object.keys(saved).length > 0 ? { artifacts: saved } : {}) };
    };
    // Calls whose tool answered `pending(...)` (not long-running ones): they wait for their results.
    const waits = new Map<string, { call: ToolCall; request: ToolPendingRequest; id: string | undefined }>();
    const messages = await mapWithConcurrency(
      calls,
      options.concurrency ?? Number.POSITIVE_INFINITY,
      async (call) => {
        const decision = decisions?.get(call.id);
        if (decision && !decision.approved) return rejected(call, decision.reason, author);
        let ranNow = false;
        let outcome: CallOutcome;
        try {
          outcome = await ctx.once(`tool-call:${call.id}`, () => {
            ranNow = true;
            return runCall(call);
          });
        } catch (error) {
          if (!isGraphPause(error)) throw error;
          pauses.push(error);
          return abortedToolMessage(call);
        }
        // Taken from the pause: the call's state writes happen again, in this attempt's session view.
        if (!ranNow) replayWrites(session, outcome.writes);
        Object.assign(artifactDelta, outcome.artifacts);
        const waiting = pendingOf(outcome.message);
        if (waiting) {
          const request = pendingRequest(call, waiting, author);
          waits.set(call.id, { call, request, id: outcome.message.id });
        } else if (outcome.message.status !== 'error') ran.push(call.name);
        return outcome.message;
      },
    );
    // Pending calls wait in call order, each in its own nested run: every one still waiting pauses, so
    // the node pauses with all of them announced together; one that got its result delivers it.
    for (const [index, call] of calls.entries()) {
      const wait = waits.get(call.id);
      if (!wait) continue;
      try {
        const delivered = await awaitPendingCall(ctx, wait);
        messages[index] = delivered;
        if (delivered.status !== 'error') ran.push(call.name);
      } catch (error) {
        if (!isGraphPause(error)) throw error;
        pauses.push(error);
      }
    }
    // A nested graph (an agent used as a tool, a pending call's wait) paused: the node pauses with every
    // nested pause (the last one carries them all) and nothing of this batch is committed; on resume the
    // finished calls come back from the pause and only the paused ones go on.
    if (pauses.length > 0) throw pauses.at(-1);
    const stateDelta = { ...session.writes };
    await emitResults(ctx, author, messages, { stateDelta: session.writes, artifactDelta });
    return { messages, stateDelta, ran };
  };
}

/** Runs one call through the `wrapToolCall` chain, turning failures into tool messages (or throwing). */
function wrapCalls(
  options: ToolNodeOptions,
  runOptions: RunToolCallOptions,
  hooks: MiddlewareContext | undefined,
): (call: ToolCall) => Promise<ToolMessage> {
  const execute = async (call: ToolCall): Promise<ToolMessage> => {
    const outcome = await runToolCall(call, runOptions);
    if (outcome.kind === 'result') return outcome.message;
    if (outcome.kind === 'aborted') return abortedToolMessage(call);
    if (options.onToolError === 'throw') throw outcome.error;
    return errorToolMessage(call, outcome.error);
  };
  if (!hooks) return execute;
  return composeWrap<ToolCall, ToolMessage>(
    options.middleware ?? [],
    (m) => (m.wrapToolCall ? (c, next) => m.wrapToolCall!(c, next, hooks) : undefined),
    execute,
  );
}

function rejected(call: ToolCall, reason: string | undefined, author: string): ToolMessage {
  const message = toolMessage(`The user rejected this call${reason ? `: ${reason}` : '.'}`, {
    toolCallId: call.id,
    name: call.name,
    status: 'error',
    id: eventId('msg'),
  });
  return { ...message, author };
}

async function emitResults(
  ctx: NodeContext,
  author: string,
  messages: readonly ToolMessage[],
  deltas: {
    readonly stateDelta: Readonly<Record<string, unknown>>;
    readonly artifactDelta: Readonly<Record<string, number>>;
  },
): Promise<void> {
  const actions = {
    ...(Object.keys(deltas.stateDelta).length > 0 ? { stateDelta: deltas.stateDelta } : {}),
    ...(Object.keys(deltas.artifactDelta).length > 0 ? { artifactDelta: deltas.artifactDelta } : {}),
  };
  for (let i = 0; i < messages.length; i++) {
    await reportAgentEvent(ctx, {
      author,
      message: messages[i] as ToolMessage,
      actions: i === messages.length - 1 ? actions : {},
    });
  }
}

/** The assistant reply whose tool calls this node answers (none after a newer user message). */
function lastReply(messages: readonly Message[]): AssistantMessage | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as Message;
    if (message.role === 'assistant') return message as AssistantMessage;
    if (message.role === 'user') break;
  }
  return undefined;
}

function askApproval(
  calls: readonly ToolCall[],
  byName: ReadonlyMap<string, AnyTool>,
  author: string,
  ctx: NodeContext,
) {
  const needing = calls.filter((call) => {
    const tool = byName.get(call.name);
    if (!tool) return false;
    const parsed = tool.parseArguments(call.arguments);
    return parsed.success && tool.requiresApproval(parsed.args);
  });
  if (needing.length === 0) return undefined;
  const request: ToolApprovalRequest = {
    type: 'tool-approval',
    agent: author,
    calls: needing.map(({ id, name, arguments: args }) => ({ id, name, arguments: args })),
  };
  const answer = ctx.interrupt(request);
  return toolDecisions(
    answer,
    needing.map((c) => c.id),
  );
}
