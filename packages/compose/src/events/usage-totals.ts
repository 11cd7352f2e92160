import type { TokenUsage } from './node-events.js';

/**
 * The model calls of one agent (or of a whole run) added up: how many calls, their tokens, and their
 * tokens per model name, which is what a price table needs to give a cost.
 *
 * @example
 * ```ts
 * const summary: UsageSummary = {
 *   calls: 2,
 *   usage: { inputTokens: 120, outputTokens: 30, totalTokens: 150 },
 *   byModel: { 'openai:gpt-4o-mini': { inputTokens: 120, outputTokens: 30, totalTokens: 150 } },
 * };
 * ```
 */
export interface UsageSummary {
  /** Model calls made (failed ones included; a call whose model reported no usage adds no tokens). */
  readonly calls: number;
  /** Their tokens, summed; an optional count is present when any call reported it. */
  readonly usage: TokenUsage;
  /** Their tokens per model name (`openai:gpt-4o-mini`). */
  readonly byModel: Readonly<Record<string, TokenUsage>>;
}

/**
 * The model calls of a run (or of an agent's turn) added up, in total and per agent: carried by the
 * events that end them (`run-end`, `run-error`; the adk Runner's `turnComplete` event). Calls reported
 * without an agent count in the total only.
 *
 * @example
 * ```ts
 * function logUsage(event: RunEvent): void {
 *   if (event.type === 'run-end' && event.usageTotals) {
 *     console.log(event.usageTotals.usage.totalTokens, event.usageTotals.byAgent.researcher?.calls);
 *   }
 * }
 * ```
 */
export interface UsageTotals extends UsageSummary {
  /** Per agent name (the agent that made the calls). */
  readonly byAgent: Readonly<Record<string, UsageSummary>>;
}
