import type { NodeContext } from '@weft/compose';
import { AdkError } from '../errors/adk-error.js';
import { eventId } from '../internal/event-id.js';
import type { AssistantMessage, Message, ToolMessage } from '../message/message.js';
import { assistantMessage, userMessage } from '../message/message-constructors.js';
import { messageText } from '../message/message-text.js';
import { callAnswered } from '../tool/pending-result.js';
import { abortedToolMessage } from '../tool/run-tool-call.js';
import { agentContextOf, reportAgentEvent, type SafePoint } from './agent-context.js';
import type { AgentInput } from './agent-graph.js';
import { type AgentState, RESET_DELTA } from './agent-state.js';
import { InvocationState } from './invocation-state.js';
import { type AgentSkip, runAfter, runBefore } from './middleware.js';
import { hookScope, middlewareContext, type ResolvedAgent } from './resolved-agent.js';
import { middlewareOf } from './run-middleware.js';
import { parseStructured } from './structured-output.js';

/**
 * `init`: starts the agent's turn — answers tool calls left dangling by a cancelled run (so the history
 * stays valid), appends the new message, resets the agent's counters and runs `beforeAgent` hooks. A new
 * message starts an invocation and clears its state delta; without one (a sub-agent continuing the
 * conversation inside a workflow or team) the delta of the agents before it is kept.
 */
export function initNode(agent: ResolvedAgent) {
  return async (state: AgentState & AgentInput, ctx: NodeContext) => {
    const run = agentContextOf(ctx.config);
    const starting = state.input !== undefined;
    const session = new InvocationState(run.sessionState, starting ? {} : state.stateDelta, run.temp);
    // Tool calls a cancelled run left unanswered get an answer, then the turn's new message follows.
    const added: Message[] = danglingToolCalls(state.messages).map((call) =>
      Object.assign({}, abortedToolMessage(call), { id: eventId('msg'), author: agent.name }),
    );
    const input = typeof state.input === 'string' ? userMessage(state.input) : state.input;
    // A tool message sent in (a long-running call's progress or result) must answer a call made here.
    if (input?.role === 'tool') callAnswered(state.messages, input);
    if (input) added.push(input.id === undefined ? { ...input, id: eventId('msg') } : input);
    // `beforeAgent` sees the turn's history, its new message included (ADK's callback context has it).
    const seen = added.length > 0 ? { ...state, messages: [...state.messages, ...added] } : state;
    const hooks = middlewareContext(agent, seen, session, hookScope(run, ctx));
    const skip = await runBefore<AgentSkip | undefined>(
      middlewareOf(agent.middleware, run),
      undefined,
      (m, s) => (s === undefined ? m.beforeAgent?.(hooks) : s),
    );
    const delta = starting ? { ...RESET_DELTA, ...session.writes } : { ...session.writes };
    // Session writes of `beforeAgent` hooks are committed like any other before the agent goes on.
    if (Object.keys(session.writes).length > 0)
      await reportAgentEvent(ctx, { author: agent.name, actions: { stateDelta: { ...session.writes } } });
    const reply = skip ? skipReply(agent.name, skip) : undefined;
    if (reply) await reportAgentEvent(ctx, { author: agent.name, message: reply, actions: {} });
    return {
      messages: [...added, ...(reply ? [reply] : [])],
      iterations: 0,
      stateDelta: delta,
      output: reply ? messageText(reply) : undefined,
      finish: reply ? ('returnDirectly' as const) : undefined,
      transferTo: undefined,
      input: undefined,
    };
  };
}

function skipReply(author: string, skip: AgentSkip): AssistantMessage {
  const reply = typeof skip.skip === 'string' ? assistantMessage(skip.skip) : skip.skip;
  return Object.assign({}, reply, { id: reply.id ?? eventId('msg'), author });
}

/** Where `init` goes: the model, or straight to `afterAgent` when a `beforeAgent` hook skipped the agent. */
export function afterInit(state: AgentState): 'model' | 'afterAgent' {
  return state.finish === 'returnDirectly' ? 'afterAgent' : 'model';
}

function danglingToolCalls(messages: readonly Message[]) {
  const answered = new Set(
    messages.filter((m): m is ToolMessage => m.role === 'tool').map((m) => m.toolCallId),
  );
  return messages
    .flatMap((m) => (m.role === 'assistant' ? ((m as AssistantMessage).toolCalls ?? []) : []))
    .filter((c) => !answered.has(c.id));
}

/**
 * A cancel safe point: when a cancel that stops here was requested, the run pauses (resumable) with a
 * `{ type: 'cancelled', at }` interrupt; otherwise it passes through.
 */
export function safePointNode(point: SafePoint) {
  return (_state: AgentState, ctx: NodeContext) => {
    if (agentContextOf(ctx.config).cancelRequested(point)) ctx.interrupt({ type: 'cancelled', at: point });
    return undefined;
  };
}

/**
 * `afterAgent`: settles the final output (a returned-directly tool result, the exit tool's result, or the
 * last reply — validated against `outputSchema`, with one repair round), writes `outputKey`, runs
 * `afterAgent` hooks and commits the final state delta with the agent's action (`exit`, `transferTo`,
 * `breakLoop`). An agent that hands off (transfer, loop break) gave no answer: its output is its last
 * reply's text and `outputKey` is left alone.
 */
export function afterAgentNode(agent: ResolvedAgent) {
  return async (state: AgentState, ctx: NodeContext) => {
    const run = agentContextOf(ctx.config);
    const session = new InvocationState(run.sessionState, state.stateDelta, run.temp);
    const hooks = middlewareContext(agent, state, session, hookScope(run, ctx));
    const handsOff = state.finish === 'transfer' || state.finish === 'breakLoop';
    let output: unknown = state.finish && !handsOff ? state.output : messageText(lastReply(state.messages));
    let messages: Message[] = [];
    if (agent.outputSchema && !state.finish) {
      const structured = await parseStructured(agent, state.messages, output as string, ctx);
      output = structured.value;
      messages = structured.messages;
    }
    let replaced = false;
    output = await runAfter(middlewareOf(agent.middleware, run), output, async (m, current) => {
      const answer = await m.afterAgent?.(hooks, current);
      if (!answer || !('output' in answer)) return undefined;
      replaced = true;
      return answer.output;
    });
    if (agent.outputKey && !handsOff) session.set(agent.outputKey, output);
    const delta = { ...session.writes };
    const action = finishAction(state);
    // A replaced output is the agent's last word: posted as its reply (ADK appends the callback's
    // content as a reply event), with the final delta and action.
    const reply = replaced ? outputReply(agent.name, output) : undefined;
    if (reply || Object.keys(delta).length > 0 || Object.keys(action).length > 0) {
      await reportAgentEvent(ctx, {
        author: agent.name,
        ...(reply ? { message: reply } : {}),
        actions: { stateDelta: delta, ...action },
      });
    }
    return {
      output,
      stateDelta: delta,
      messages: reply ? [...messages, reply] : messages,
      activeAgent: agent.name,
    };
  };
}

/** The assistant reply that posts an output an `afterAgent` hook set (a string as text, else as JSON). */
function outputReply(author: string, output: unknown): AssistantMessage {
  const text = typeof output === 'string' ? output : JSON.stringify(output ?? null);
  return Object.assign({}, assistantMessage(text), { id: eventId('msg'), author });
}

function finishAction(state: AgentState): { exit?: true; transferTo?: string; breakLoop?: true } {
  if (state.finish === 'exit') return { exit: true };
  if (state.finish === 'transfer' && state.transferTo) return { transferTo: state.transferTo };
  if (state.finish === 'breakLoop') return { breakLoop: true };
  return {};
}

function lastReply(messages: readonly Message[]): Message {
  for (let i = messages.length - 1; i >= 0; i--)
    if (messages[i]?.role === 'assistant') return messages[i] as Message;
  throw new AdkError('INVALID_ARGUMENT', 'the agent finished without a model reply');
}
