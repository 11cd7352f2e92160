import type { MiddlewareContext } from '../agent/middleware.js';
import type { JsonValue } from '../message/message.js';

/**
 * What the context engine reports, as `event.custom` of an `AgentEvent` (committed and stored like any
 * event). Data per type:
 * - `context-sections-dropped`: `{ dropped: string[], budgetTokens, tokens }` — prompt sections left out.
 * - `context-compaction`: `{ summarized, kept, tokensBefore, tokensAfter, summaryId }`.
 * - `context-reminder`: `{ rule, trigger }` — a reminder shown to one model call.
 * - `context-phase`: `{ phase, tools }` — the phase changed.
 * - `memory-recall`: `{ query, memories: [{ id, text, score? }], dropped }` — what `recall` put in the
 *   instruction for a turn (`dropped`: hits left out to fit its budget).
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const agent = new ChatModelAgent({ name: 'coder', model: new ScriptedChatModel(['Done.']) });
 * const runner = new Runner({ agent, sessionService: new MemorySessionService() });
 * for await (const event of runner.run({ userId: 'u1', sessionId: 's1', message: 'Refactor the parser' })) {
 *   if (event.custom?.type === ('context-compaction' satisfies ContextEventType)) console.log('compacted', event.custom.data);
 * }
 * ```
 */
export type ContextEventType =
  | 'context-sections-dropped'
  | 'context-compaction'
  | 'context-reminder'
  | 'context-phase'
  | 'memory-recall';

/**
 * Reports a context-engine event through the hook context (a no-op where hooks cannot emit).
 *
 * @example
 * ```ts
 * const announce: AgentMiddleware = {
 *   name: 'announce-phase',
 *   beforeModel: async (_request, ctx) => {
 *     await reportContextEvent(ctx, 'context-phase', { phase: 'execution', tools: ['write_file'] });
 *   },
 * };
 * ```
 */
export async function reportContextEvent(
  ctx: MiddlewareContext,
  type: ContextEventType,
  data: JsonValue,
): Promise<void> {
  await ctx.emit?.({ author: ctx.agentName, actions: {}, custom: { type, data } });
}
