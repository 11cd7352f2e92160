import type { AgentMiddleware, MiddlewareContext, ModelRequest } from '../agent/middleware.js';
import { AdkError } from '../errors/adk-error.js';
import { assertNever } from '../internal/assert-never.js';
import type { Message } from '../message/message.js';
import { systemMessage, userMessage } from '../message/message-constructors.js';
import { reportContextEvent } from './context-event.js';
import {
  callsInCategory,
  categoryUsedThisTurn,
  compactedForThisCall,
  iterationsWithoutProgress,
  type ProgressPredicate,
  ranInLastRound,
} from './reminder-triggers.js';

/**
 * When a reminder is shown:
 * - `noProgress`: after every `iterations` model calls without progress (see `ProgressPredicate`);
 * - `afterCompaction`: on the call whose history was just compacted;
 * - `beforeToolCategory`: when the model asks for a tool of `category` (tool name → category in
 *   `categories`), before that tool runs: the model is asked again with the reminder and its second
 *   answer is the one kept. At most once per user turn and rule: once a tool of the category was
 *   called in the turn, the reminder is not repeated;
 * - `afterToolCategory`: on the model call right after a tool of `category` ran successfully (e.g. a
 *   file was modified) — once per such tool round;
 * - `afterIterations`: on the model call after `iterations` calls of this invocation — once;
 * - `onPhase`: on the first call where `phaseOf` (a function of the run) returns `phase` after it
 *   returned another phase (or on the first call, if it starts there) — once per entry;
 * - `custom`: when `fires` (a function of the run) becomes true — once, until it is false again.
 *
 * @example
 * ```ts
 * const trigger: ReminderTrigger = { kind: 'noProgress', iterations: 3 };
 * ```
 */
export type ReminderTrigger =
  | { readonly kind: 'noProgress'; readonly iterations: number; readonly progress?: ProgressPredicate }
  | { readonly kind: 'afterCompaction' }
  | {
      readonly kind: 'beforeToolCategory';
      readonly category: string;
      readonly categories: Readonly<Record<string, string>>;
    }
  | {
      readonly kind: 'afterToolCategory';
      readonly category: string;
      readonly categories: Readonly<Record<string, string>>;
    }
  | { readonly kind: 'afterIterations'; readonly iterations: number }
  | { readonly kind: 'onPhase'; readonly phase: string; readonly phaseOf: (ctx: MiddlewareContext) => string }
  | { readonly kind: 'custom'; readonly fires: (ctx: MiddlewareContext) => boolean };

/**
 * A steering reminder: shown to one model call when its trigger fires, never stored in the history.
 *
 * @example
 * ```ts
 * const rule: ReminderRule = {
 *   id: 'stuck',
 *   when: { kind: 'noProgress', iterations: 3 },
 *   text: 'You seem stuck. Re-read the task and try a different approach.',
 * };
 * ```
 */
export interface ReminderRule {
  /** Names the rule in `context-reminder` events. */
  readonly id: string;
  readonly when: ReminderTrigger;
  readonly text: string | ((ctx: MiddlewareContext) => string);
}

/** Options of {@link reminders}. */
export interface RemindersOptions {
  readonly rules: readonly ReminderRule[];
  /** The role of the injected message (default `system`; use `user` for models that take one system message). */
  readonly role?: 'system' | 'user';
}

/**
 * Middleware for event-driven system reminders: each rule's text is appended, wrapped in
 * `<system-reminder>` tags, to the messages of the one model call its trigger fires for, and a
 * `context-reminder` event reports it. Reminders are never written to the history. Runs in `wrapModel`,
 * so it sees the request after every `beforeModel` hook (a compaction included), wherever it is
 * registered.
 *
 * @throws AdkError `INVALID_ARGUMENT` for duplicate rule ids or a `noProgress` / `afterIterations` count below 1.
 * @example
 * ```ts
 * const steering = reminders({
 *   rules: [
 *     { id: 'stuck', when: { kind: 'noProgress', iterations: 3 }, text: 'Try a different approach.' },
 *     { id: 'compacted', when: { kind: 'afterCompaction' }, text: 'Older turns were summarized; re-read files you need.' },
 *     {
 *       id: 'careful',
 *       when: { kind: 'beforeToolCategory', category: 'destructive', categories: { delete_file: 'destructive' } },
 *       text: 'Deleting cannot be undone: only delete what the user asked for.',
 *     },
 *     {
 *       id: 'retest',
 *       when: { kind: 'afterToolCategory', category: 'write', categories: { write_file: 'write' } },
 *       text: 'A file changed: run the tests before you answer.',
 *     },
 *     { id: 'wrap-up', when: { kind: 'afterIterations', iterations: 10 }, text: 'Start wrapping up.' },
 *   ],
 * });
 * ```
 */
export function reminders(options: RemindersOptions): AgentMiddleware {
  validate(options.rules);
  const role = options.role ?? 'system';
  const show = async (request: ModelRequest, rules: readonly ReminderRule[], ctx: MiddlewareContext) => {
    if (rules.length === 0) return request;
    const added: Message[] = [];
    for (const rule of rules) {
      const text = `<system-reminder>\n${typeof rule.text === 'string' ? rule.text : rule.text(ctx)}\n</system-reminder>`;
      added.push(role === 'system' ? systemMessage(text) : userMessage(text));
      await reportContextEvent(ctx, 'context-reminder', { rule: rule.id, trigger: rule.when.kind });
    }
    return { ...request, messages: [...request.messages, ...added] };
  };
  return {
    name: 'reminders',
    async wrapModel(request, next, ctx) {
      const due = options.rules.filter((rule) => isDue(rule, request, ctx) && !onEdge(rule, ctx));
      const sent = await show(request, due, ctx);
      const reply = await next(sent);
      const guarded = options.rules.filter((rule) => {
        const { when } = rule;
        if (when.kind !== 'beforeToolCategory') return false;
        if (callsInCategory(reply, when.category, when.categories).length === 0) return false;
        return !categoryUsedThisTurn(ctx.state.messages, when.category, when.categories);
      });
      if (guarded.length === 0) return reply;
      return next(await show(sent, guarded, ctx));
    },
  };
}

function isDue(rule: ReminderRule, request: ModelRequest, ctx: MiddlewareContext): boolean {
  const { when } = rule;
  switch (when.kind) {
    case 'noProgress': {
      const stalled = iterationsWithoutProgress(ctx.state.messages, ctx.iteration, when.progress);
      return stalled > 0 && stalled % when.iterations === 0;
    }
    case 'afterCompaction':
      return compactedForThisCall(request.messages, ctx.state.messages);
    case 'beforeToolCategory':
      return false;
    case 'afterToolCategory':
      return ranInLastRound(ctx.state.messages, when.category, when.categories);
    case 'afterIterations':
      return ctx.iteration === when.iterations;
    case 'onPhase':
    case 'custom':
      return true;
    default:
      return assertNever(when);
  }
}

/**
 * For edge-triggered rules (`onPhase`, `custom`): records this call's condition in an invocation-scoped
 * `temp:` key and returns true (suppress) unless the condition just became true.
 */
function onEdge(rule: ReminderRule, ctx: MiddlewareContext): boolean {
  const { when } = rule;
  if (when.kind !== 'onPhase' && when.kind !== 'custom') return false;
  const now = when.kind === 'onPhase' ? when.phaseOf(ctx) === when.phase : when.fires(ctx) === true;
  const key = `temp:context.reminder.${ctx.agentName}.${rule.id}`;
  const before = ctx.session.get(key) === true;
  if (before !== now) ctx.session.set(key, now);
  return !now || before;
}

function validate(rules: readonly ReminderRule[]): void {
  const ids = new Set<string>();
  for (const rule of rules) {
    if (ids.has(rule.id))
      throw new AdkError('INVALID_ARGUMENT', `reminders: rule id "${rule.id}" is used twice`);
    ids.add(rule.id);
    if (
      rule.when.kind === 'noProgress' &&
      !(Number.isInteger(rule.when.iterations) && rule.when.iterations >= 1)
    ) {
      throw new AdkError(
        'INVALID_ARGUMENT',
        `reminders: rule "${rule.id}" needs noProgress.iterations ≥ 1, got ${rule.when.iterations}`,
      );
    }
    if (
      rule.when.kind === 'afterIterations' &&
      !(Number.isInteger(rule.when.iterations) && rule.when.iterations >= 1)
    ) {
      throw new AdkError(
        'INVALID_ARGUMENT',
        `reminders: rule "${rule.id}" needs afterIterations.iterations ≥ 1, got ${rule.when.iterations}`,
      );
    }
  }
}
