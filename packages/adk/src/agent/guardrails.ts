import { AdkError } from '../errors/adk-error.js';
import type { Message, ToolCall, ToolMessage } from '../message/message.js';
import { toolMessage } from '../message/message-constructors.js';
import type { AgentMiddleware, MiddlewareContext } from './middleware.js';

/**
 * What a guardrail decides: `tripwireTriggered` stops the turn with a {@link GuardrailTripwireError}
 * carrying `outputInfo` (OpenAI Agents' `GuardrailFunctionOutput`).
 *
 * @example
 * ```ts
 * const verdict: GuardrailVerdict = { tripwireTriggered: true, outputInfo: { reason: 'homework' } };
 * ```
 */
export interface GuardrailVerdict {
  readonly tripwireTriggered: boolean;
  readonly outputInfo?: unknown;
}

/**
 * A check of the user's input, run before the agent's first model call of the turn or — with
 * `runInParallel` — alongside it (the model's answer is dropped when the tripwire fires).
 *
 * @example
 * ```ts
 * const noSecrets: InputGuardrail = { name: 'no-secrets', execute: ({ input }) => ({ tripwireTriggered: /password/i.test(input) }) };
 * ```
 */
export interface InputGuardrail {
  readonly name: string;
  readonly runInParallel?: boolean;
  execute(args: {
    /** The text of the latest user message. */
    readonly input: string;
    readonly messages: readonly Message[];
    readonly context: MiddlewareContext;
  }): GuardrailVerdict | Promise<GuardrailVerdict>;
}

/**
 * A check of the agent's final answer (its output, after `outputSchema`).
 *
 * @example
 * ```ts
 * const noPhone: OutputGuardrail = { name: 'no-phone', execute: ({ output }) => ({ tripwireTriggered: /\d{3}-\d{4}/.test(String(output)) }) };
 * ```
 */
export interface OutputGuardrail {
  readonly name: string;
  execute(args: {
    readonly output: unknown;
    readonly context: MiddlewareContext;
  }): GuardrailVerdict | Promise<GuardrailVerdict>;
}

/**
 * What a tool guardrail decides (OpenAI Agents' tool guardrail behaviours): `allow`; `reject` — the
 * call does not run (before) or its result is replaced (after) by `message`, which the model reads;
 * `tripwire` — the turn stops with a {@link GuardrailTripwireError}.
 *
 * @example
 * ```ts
 * const decision: ToolGuardrailDecision = { behavior: 'reject', message: 'Refunds over $100 need a manager.' };
 * ```
 */
export type ToolGuardrailDecision =
  | { readonly behavior: 'allow' }
  | { readonly behavior: 'reject'; readonly message: string }
  | { readonly behavior: 'tripwire'; readonly outputInfo?: unknown };

/**
 * A check before a tool call runs (on its call) or after (on its result).
 *
 * @example
 * ```ts
 * const smallRefunds: ToolGuardrail = {
 *   name: 'small-refunds',
 *   execute: ({ call }) => (JSON.parse(call.arguments).amount > 100 ? { behavior: 'reject', message: 'Too large.' } : { behavior: 'allow' }),
 * };
 * ```
 */
export interface ToolGuardrail {
  readonly name: string;
  /** Only these tools (default: every tool). */
  readonly tools?: readonly string[];
  execute(args: {
    readonly call: ToolCall;
    /** The tool's result (output guardrails only). */
    readonly result?: ToolMessage;
    readonly context: MiddlewareContext;
  }): ToolGuardrailDecision | Promise<ToolGuardrailDecision>;
}

/**
 * A guardrail's tripwire fired: the turn stops (its last event carries the code
 * `GUARDRAIL_TRIPWIRE`, and the Runner's stream fails with this error).
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const noSecrets: InputGuardrail = { name: 'no-secrets', execute: ({ input }) => ({ tripwireTriggered: /password/i.test(input) }) };
 * const agent = new ChatModelAgent({ name: 'desk', model: new ScriptedChatModel(['Hi!']), middleware: [guardrails({ input: [noSecrets] })] });
 * const runner = new Runner({ agent, sessionService: new MemorySessionService() });
 * try {
 *   await drain(runner.run({ userId: 'u1', sessionId: 's1', message: 'My password is hunter2' }));
 * } catch (error) {
 *   if (GuardrailTripwireError.isInstance(error)) console.log(error.kind, error.guardrail, error.outputInfo); // input no-secrets
 * }
 * ```
 */
export class GuardrailTripwireError extends AdkError {
  override readonly name = 'GuardrailTripwireError';

  constructor(
    readonly kind: 'input' | 'output' | 'toolInput' | 'toolOutput',
    readonly guardrail: string,
    readonly agent: string,
    readonly outputInfo?: unknown,
  ) {
    super('GUARDRAIL_TRIPWIRE', `the ${kind} guardrail "${guardrail}" of agent "${agent}" stopped the turn`);
  }

  /** True for a tripwire, even one thrown by another copy of this package. */
  static override isInstance(value: unknown): value is GuardrailTripwireError {
    return AdkError.isInstance(value) && value.code === 'GUARDRAIL_TRIPWIRE';
  }
}

/**
 * The guardrails of {@link guardrails}.
 *
 * @example
 * ```ts
 * const noSecrets: InputGuardrail = { name: 'no-secrets', execute: ({ input }) => ({ tripwireTriggered: /password/i.test(input) }) };
 * const noPhone: OutputGuardrail = { name: 'no-phone', execute: ({ output }) => ({ tripwireTriggered: /\d{3}-\d{4}/.test(String(output)) }) };
 * const smallRefunds: ToolGuardrail = {
 *   name: 'small-refunds',
 *   execute: ({ call }) => (JSON.parse(call.arguments).amount > 100 ? { behavior: 'reject', message: 'Too large.' } : { behavior: 'allow' }),
 * };
 * const options: GuardrailOptions = { input: [noSecrets], output: [noPhone], toolInput: [smallRefunds] };
 * ```
 */
export interface GuardrailOptions {
  readonly input?: readonly InputGuardrail[];
  readonly output?: readonly OutputGuardrail[];
  readonly toolInput?: readonly ToolGuardrail[];
  readonly toolOutput?: readonly ToolGuardrail[];
}

/**
 * Guardrails as middleware (OpenAI Agents' input, output and tool guardrails): give it to an agent's
 * `middleware`, or to a Runner as a plugin (`{ name: 'guardrails', ...guardrails(options) }`) to guard
 * every agent. Input guardrails run before the agent's first model call of a turn (all of them, at
 * once) or alongside it with `runInParallel`; output guardrails on its final output; tool guardrails
 * before and after each call.
 *
 * @throws GuardrailTripwireError from the run when a tripwire fires.
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const noSecrets: InputGuardrail = { name: 'no-secrets', execute: ({ input }) => ({ tripwireTriggered: /password/i.test(input) }) };
 * const model = new ScriptedChatModel(['How can I help?']);
 * const agent = new ChatModelAgent({ name: 'desk', model, middleware: [guardrails({ input: [noSecrets] })] });
 * ```
 */
export function guardrails(options: GuardrailOptions): AgentMiddleware {
  const sequential = (options.input ?? []).filter((g) => !g.runInParallel);
  const parallel = (options.input ?? []).filter((g) => g.runInParallel);
  return {
    name: 'guardrails',
    async wrapModel(request, next, ctx) {
      if (ctx.iteration > 0 || (options.input ?? []).length === 0) return next(request);
      const check = (list: readonly InputGuardrail[]) => checkInput(list, ctx);
      await check(sequential);
      if (parallel.length === 0) return next(request);
      const [, answer] = await Promise.all([check(parallel), next(request)]);
      return answer;
    },
    async afterAgent(ctx, output) {
      const verdicts = await Promise.all(
        (options.output ?? []).map(async (g) => [g, await g.execute({ output, context: ctx })] as const),
      );
      const tripped = verdicts.find(([, v]) => v.tripwireTriggered);
      if (tripped)
        throw new GuardrailTripwireError('output', tripped[0].name, ctx.agentName, tripped[1].outputInfo);
    },
    async wrapToolCall(call, next, ctx) {
      const before = await decide(options.toolInput ?? [], { call, context: ctx });
      if (before) return settle(before, 'toolInput', call, ctx);
      const result = await next(call);
      const after = await decide(options.toolOutput ?? [], { call, result, context: ctx });
      return after ? settle(after, 'toolOutput', call, ctx) : result;
    },
  };
}

async function checkInput(list: readonly InputGuardrail[], ctx: MiddlewareContext): Promise<void> {
  if (list.length === 0) return;
  const messages = ctx.state.messages;
  const lastUser = [...messages].reverse().find((m) => m.role === 'user');
  const input = lastUser ? textOf(lastUser) : '';
  const verdicts = await Promise.all(
    list.map(async (g) => [g, await g.execute({ input, messages, context: ctx })] as const),
  );
  const tripped = verdicts.find(([, v]) => v.tripwireTriggered);
  if (tripped)
    throw new GuardrailTripwireError('input', tripped[0].name, ctx.agentName, tripped[1].outputInfo);
}

type Decided = {
  readonly guardrail: string;
  readonly decision: Exclude<ToolGuardrailDecision, { behavior: 'allow' }>;
};

async function decide(
  list: readonly ToolGuardrail[],
  args: Parameters<ToolGuardrail['execute']>[0],
): Promise<Decided | undefined> {
  for (const guardrail of list) {
    if (guardrail.tools && !guardrail.tools.includes(args.call.name)) continue;
    const decision = await guardrail.execute(args);
    if (decision.behavior !== 'allow') return { guardrail: guardrail.name, decision };
  }
  return undefined;
}

function settle(
  decided: Decided,
  kind: 'toolInput' | 'toolOutput',
  call: ToolCall,
  ctx: MiddlewareContext,
): ToolMessage {
  const { decision } = decided;
  if (decision.behavior === 'tripwire')
    throw new GuardrailTripwireError(kind, decided.guardrail, ctx.agentName, decision.outputInfo);
  return toolMessage(decision.message, { toolCallId: call.id, name: call.name, status: 'error' });
}

function textOf(message: Message): string {
  if (typeof message.content === 'string') return message.content;
  return message.content.map((part) => ('text' in part ? part.text : '')).join('');
}
