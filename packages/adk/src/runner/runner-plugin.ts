import type { AgentMiddleware } from '../agent/middleware.js';
import { AdkError } from '../errors/adk-error.js';
import type { AgentEvent } from '../event/agent-event.js';
import type { Message } from '../message/message.js';
import type { RunIdentity } from '../session/run-identity.js';
import type { Session } from '../session/session.js';
import type { InvocationOutcome } from './invocation.js';

/**
 * What `beforeRun` hooks see: who runs, in which session, with which input.
 *
 * @example
 * ```ts
 * const hook = ({ tenantId, userId, session, input }: RunStartContext) =>
 *   console.log(tenantId, userId, session.turns, 'message' in input ? 'new message' : 'resume');
 * ```
 */
export interface RunStartContext extends RunIdentity {
  /** The session as stored before the turn (status, state, no events). */
  readonly session: Session;
  /** A new user message, or the decisions of a resume. */
  readonly input: { readonly message: Message | string } | { readonly resume: unknown };
}

/**
 * What `afterRun` hooks see: the start context and how the turn ended.
 *
 * @example
 * ```ts
 * const hook = ({ outcome, error }: RunEndContext) => { if (outcome === 'failed') console.error(error); };
 * ```
 */
export interface RunEndContext extends RunStartContext {
  readonly outcome: InvocationOutcome | 'failed';
  /** Why the turn failed (outcome `failed`). */
  readonly error?: unknown;
}

/**
 * What a `beforeRun` hook may return: `temp:` keys for this turn (per-tenant configuration, a quota
 * left), seen by every agent, tool and instruction template of the turn and never stored.
 *
 * @example
 * ```ts
 * const result: BeforeRunResult = { temp: { 'temp:plan': 'pro' } };
 * ```
 */
export interface BeforeRunResult {
  readonly temp?: Readonly<Record<string, unknown>>;
}

/**
 * A Runner-wide hook that runs before each turn (and resume). Throwing refuses the turn: the stream
 * fails with a {@link RunRefusedError} (the thrown one, or one wrapping what was thrown) and nothing
 * is stored — no user message, no status change.
 *
 * @example
 * ```ts
 * const quota = new Map<string, number>([['acme', 100]]);
 * const auth: BeforeRunHook = async ({ tenantId = 'none' }) => {
 *   const left = quota.get(tenantId) ?? 0;
 *   if (left <= 0) throw new RunRefusedError('quota exhausted');
 *   quota.set(tenantId, left - 1);
 *   return { temp: { 'temp:tenantConfig': { plan: 'pro' } } };
 * };
 * ```
 */
export type BeforeRunHook = (
  context: RunStartContext,
) => BeforeRunResult | undefined | void | Promise<BeforeRunResult | undefined | void>;

/**
 * A Runner-wide hook that runs after each turn (also when it failed); a failure of it is rethrown.
 *
 * @example
 * ```ts
 * const audit: AfterRunHook = ({ userId, outcome }) => console.info({ userId, outcome });
 * ```
 */
export type AfterRunHook = (context: RunEndContext) => void | Promise<void>;

/**
 * What a plugin's `onEvent` hook sees besides the event: who runs and which invocation it belongs to.
 *
 * @example
 * ```ts
 * const context: RunEventContext = { appName: 'shop', userId: 'u1', sessionId: 's1', invocationId: 'inv-1' };
 * ```
 */
export interface RunEventContext extends RunIdentity {
  readonly invocationId: string;
}

/**
 * A plugin's per-event hook (Google ADK's `on_event_callback`): it sees each event the Runner hands its
 * caller — the agents' events (committed first; partial ones too) and the closing `turnComplete`
 * event, not the user's own message — and may return another event for the caller to receive instead.
 * The session keeps what was committed. The first plugin that returns an event wins.
 *
 * @example
 * ```ts
 * const redact: OnEventHook = (event) =>
 *   event.message?.role === 'assistant' && typeof event.message.content === 'string'
 *     ? { ...event, message: { ...event.message, content: event.message.content.replace(/\d{16}/g, '[card]') } }
 *     : undefined;
 * ```
 */
export type OnEventHook = (
  event: AgentEvent,
  context: RunEventContext,
) => AgentEvent | undefined | void | Promise<AgentEvent | undefined | void>;

/**
 * A plugin (Google ADK's `BasePlugin`): callbacks for every agent the Runner runs — its middleware
 * hooks (`beforeAgent`, `beforeModel`, `beforeTool`, `wrapToolCall`, …) run around each agent's own
 * middleware, the first plugin outermost — plus Runner-wide `beforeRun`/`afterRun` and `onEvent`. A hook
 * the Runner does not call (a misspelled name) is refused when the Runner is made.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const agent = new ChatModelAgent({ name: 'desk', model: new ScriptedChatModel(['Hello!']) });
 * const sessionService = new MemorySessionService();
 * const audit: RunnerPlugin = {
 *   name: 'audit',
 *   beforeModel: (request, ctx) => { console.info(ctx.agentName, request.messages.length); },
 *   afterTool: (result) => { console.info('tool', result.name); },
 *   afterRun: ({ outcome }) => { console.info(outcome); },
 * };
 * const runner = new Runner({ agent, sessionService, plugins: [audit] });
 * ```
 */
export interface RunnerPlugin extends AgentMiddleware {
  readonly name: string;
  readonly beforeRun?: BeforeRunHook;
  readonly afterRun?: AfterRunHook;
  readonly onEvent?: OnEventHook;
}

/**
 * A turn refused by a `beforeRun` hook (authentication, quota, a disabled tenant).
 *
 * @example
 * ```ts
 * function report(error: unknown): void {
 *   if (RunRefusedError.isInstance(error)) console.log('refused:', error.reason);
 * }
 * ```
 */
export class RunRefusedError extends AdkError {
  override readonly name = 'RunRefusedError';

  constructor(
    readonly reason: string,
    options: { readonly hook?: string; readonly cause?: unknown } = {},
  ) {
    super('RUN_REFUSED', `the run was refused${options.hook ? ` by ${options.hook}` : ''}: ${reason}`, {
      cause: options.cause,
    });
  }

  /** True for a refusal, even one thrown by another copy of this package. */
  static override isInstance(value: unknown): value is RunRefusedError {
    return AdkError.isInstance(value) && value.code === 'RUN_REFUSED';
  }
}

/**
 * Runs the `beforeRun` hooks in order (the Runner's own first, then each plugin's) and gathers the
 * `temp:` keys they return.
 *
 * @throws RunRefusedError when a hook throws (a refusal is passed on as it is; another error is wrapped).
 * @example
 * ```ts
 * const sessions = new MemorySessionService();
 * const session = await sessions.create({ appName: 'shop', userId: 'u1', sessionId: 's1' });
 * const context: RunStartContext = { appName: 'shop', userId: 'u1', sessionId: 's1', session, input: { message: 'Hi' } };
 * const beforeRun: BeforeRunHook = () => ({ temp: { 'temp:plan': 'pro' } });
 * const temp = await runBeforeRun([{ name: 'runner', hook: beforeRun }], context); // Map { 'temp:plan' → 'pro' }
 * ```
 */
export async function runBeforeRun(
  hooks: readonly { readonly name: string; readonly hook: BeforeRunHook | undefined }[],
  context: RunStartContext,
): Promise<Map<string, unknown>> {
  const temp = new Map<string, unknown>();
  for (const { name, hook } of hooks) {
    if (!hook) continue;
    let result: BeforeRunResult | undefined | void;
    try {
      result = await hook(context);
    } catch (error) {
      if (RunRefusedError.isInstance(error)) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new RunRefusedError(reason, { hook: name, cause: error });
    }
    for (const [key, value] of Object.entries(result?.temp ?? {})) {
      if (!key.startsWith('temp:'))
        throw new AdkError(
          'INVALID_ARGUMENT',
          `beforeRun of ${name} returned key "${key}"; temp keys start with "temp:"`,
        );
      temp.set(key, value);
    }
  }
  return temp;
}
