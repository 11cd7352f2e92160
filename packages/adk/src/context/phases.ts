import type { AgentMiddleware, MiddlewareContext, ModelRequest } from '../agent/middleware.js';
import { AdkError } from '../errors/adk-error.js';
import type { Message } from '../message/message.js';
import { systemMessage, toolMessage } from '../message/message-constructors.js';
import { messageText } from '../message/message-text.js';
import type { ChatModel } from '../model/chat-model.js';
import type { SessionState } from '../tool/session-state.js';
import { reportContextEvent } from './context-event.js';

/** The two phases of {@link phases}. */
export type Phase = 'thinking' | 'execution';

/** What decides the phase: the model call's index, the history before it, and the session. */
export interface PhaseView {
  /** Index of the model call in this invocation (0 for the first). */
  readonly iteration: number;
  /** The history the model call reads. */
  readonly messages: readonly Message[];
  readonly session: SessionState;
}

/** One phase's settings. */
export interface PhaseSettings {
  /** The model of this phase's calls (default: the agent's). */
  readonly model?: ChatModel;
  /** Added to the system prompt during this phase. */
  readonly instruction?: string;
}

/** Options of {@link phases}. */
export interface PhasesOptions {
  /** The planning phase; with `readOnly` (default true) it is offered only tools marked `readOnly`. */
  readonly thinking: PhaseSettings & { readonly readOnly?: boolean };
  /** The acting phase, with every tool. */
  readonly execution: PhaseSettings;
  /**
   * When execution starts: after this many model calls of an invocation, or once the predicate holds
   * (e.g. `({ session }) => session.has('plan')`). Decided from state only, so resumes agree.
   */
  readonly switchWhen: number | ((view: PhaseView) => boolean);
}

/**
 * The phase a model call runs in.
 *
 * @example
 * ```ts
 * const session = new MemorySessionState();
 * phaseOf({ switchWhen: 2 }, { iteration: 1, messages: [], session }); // 'thinking'
 * ```
 */
export function phaseOf(options: Pick<PhasesOptions, 'switchWhen'>, view: PhaseView): Phase {
  const { switchWhen } = options;
  const execute = typeof switchWhen === 'number' ? view.iteration >= switchWhen : switchWhen(view);
  return execute ? 'execution' : 'thinking';
}

/**
 * Middleware that runs an agent in two phases: a "thinking" phase offered only read-only tools (calls
 * to others are refused with a tool message, should the model make one up), then an "execution" phase
 * with every tool. Each phase may bind its own model (`request.model`; streaming and other middleware
 * keep working) and add to the instruction — e.g. a strong model plans, a fast one acts. A phase change
 * is reported as a `context-phase` event.
 *
 * @throws AdkError `INVALID_ARGUMENT` for a negative or fractional `switchWhen` count.
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const strongModel = new ScriptedChatModel(['Done.']); // any ChatModel, e.g. a large one
 * const cheapModel = new ScriptedChatModel(['Summary.']); // a small, cheap one
 * const fastModel = cheapModel;
 * const planned = phases({
 *   thinking: { model: strongModel, readOnly: true, instruction: 'Plan first: read, then write_todos.' },
 *   execution: { model: fastModel },
 *   switchWhen: ({ session }) => session.has('todos'),
 * });
 * ```
 */
export function phases(options: PhasesOptions): AgentMiddleware {
  if (
    typeof options.switchWhen === 'number' &&
    !(Number.isInteger(options.switchWhen) && options.switchWhen >= 0)
  )
    throw new AdkError(
      'INVALID_ARGUMENT',
      `phases: switchWhen must be an integer ≥ 0, got ${options.switchWhen}`,
    );
  const readOnlyPhase = options.thinking.readOnly ?? true;
  /** Which of an agent's tools are read-only (agent configuration, learnt from the requests). */
  const readOnlyTools = new Map<string, Map<string, boolean>>();
  return {
    name: 'phases',
    async beforeModel(request, ctx) {
      const known = readOnlyTools.get(ctx.agentName) ?? new Map<string, boolean>();
      for (const tool of request.tools) known.set(tool.name, tool.readOnly);
      readOnlyTools.set(ctx.agentName, known);
      const phase = phaseOf(options, {
        iteration: ctx.iteration,
        messages: ctx.state.messages,
        session: ctx.session,
      });
      const settings = phase === 'thinking' ? options.thinking : options.execution;
      const tools =
        phase === 'thinking' && readOnlyPhase ? request.tools.filter((t) => t.readOnly) : request.tools;
      await reportChange(
        ctx,
        phase,
        tools.map((t) => t.name),
      );
      const changed: ModelRequest = {
        ...request,
        tools,
        ...(settings.model ? { model: settings.model } : {}),
      };
      return settings.instruction ? withInstruction(changed, settings.instruction) : changed;
    },
    async wrapToolCall(call, next, ctx) {
      if (!readOnlyPhase) return next(call);
      const messages = ctx.state.messages;
      let asked = messages.length - 1;
      while (asked >= 0 && messages[asked]?.role !== 'assistant') asked--;
      const view = {
        iteration: Math.max(0, ctx.iteration - 1),
        messages: messages.slice(0, Math.max(0, asked)),
        session: ctx.session,
      };
      const readOnly = readOnlyTools.get(ctx.agentName)?.get(call.name);
      if (phaseOf(options, view) === 'execution' || readOnly !== false) return next(call);
      return toolMessage(
        `Error: tool "${call.name}" changes things and is not available in the thinking (read-only) phase. Plan with the read-only tools first.`,
        { toolCallId: call.id, name: call.name, status: 'error' },
      );
    },
  };
}

async function reportChange(ctx: MiddlewareContext, phase: Phase, tools: string[]): Promise<void> {
  const key = `temp:context.phase.${ctx.agentName}`;
  if (ctx.session.get(key) === phase) return;
  ctx.session.set(key, phase);
  await reportContextEvent(ctx, 'context-phase', { phase, tools });
}

function withInstruction(request: ModelRequest, instruction: string): ModelRequest {
  const [first, ...rest] = request.messages;
  if (first?.role === 'system')
    return { ...request, messages: [systemMessage(`${messageText(first)}\n\n${instruction}`), ...rest] };
  return { ...request, messages: [systemMessage(instruction), ...request.messages] };
}
