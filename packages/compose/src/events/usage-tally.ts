import type { TokenUsage } from './node-events.js';
import type { UsageSummary, UsageTotals } from './usage-totals.js';

/**
 * One model call as {@link usageTotalsOf} counts it: a `model-call` event, or an adk agent event that
 * carries a model reply's usage.
 *
 * @example
 * ```ts
 * const call: UsageCall = { model: 'openai:gpt-4o-mini', agent: 'researcher', usage: { inputTokens: 10, outputTokens: 2, totalTokens: 12 } };
 * ```
 */
export interface UsageCall {
  readonly model: string;
  readonly agent?: string | undefined;
  readonly usage?: TokenUsage | undefined;
}

type OptionalCount = 'cachedInputTokens' | 'cacheWriteTokens' | 'reasoningTokens';
const OPTIONAL_COUNTS: readonly OptionalCount[] = [
  'cachedInputTokens',
  'cacheWriteTokens',
  'reasoningTokens',
];

/** Adds two usages; an optional count is kept when either has it. */
function sumTokenUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  const sum: { -readonly [K in keyof TokenUsage]: TokenUsage[K] } = {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
  for (const key of OPTIONAL_COUNTS) {
    if (a[key] !== undefined || b[key] !== undefined) sum[key] = (a[key] ?? 0) + (b[key] ?? 0);
  }
  return sum;
}

const NO_TOKENS: TokenUsage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };

class SummaryTally {
  calls = 0;
  usage: TokenUsage = NO_TOKENS;
  readonly byModel = new Map<string, TokenUsage>();

  add(call: UsageCall): void {
    this.calls += 1;
    if (!call.usage) return;
    this.usage = sumTokenUsage(this.usage, call.usage);
    this.byModel.set(call.model, sumTokenUsage(this.byModel.get(call.model) ?? NO_TOKENS, call.usage));
  }

  summary(): UsageSummary {
    return { calls: this.calls, usage: this.usage, byModel: Object.fromEntries(this.byModel) };
  }
}

const NO_AGENTS: ReadonlyMap<string, SummaryTally> = new Map();

/**
 * Adds up the model calls of one run (or one agent turn), in total and per agent. Used by the engine
 * for `run-end`/`run-error` and by the adk Runner for `turnComplete`; it exists only while someone
 * listens to the events.
 */
export class UsageTally {
  // Made with the first call: every watched run has a tally, and most runs call no model.
  #total: SummaryTally | undefined;
  #byAgent: Map<string, SummaryTally> | undefined;

  /** Counts one call. */
  add(call: UsageCall): void {
    (this.#total ??= new SummaryTally()).add(call);
    if (call.agent === undefined) return;
    const byAgent = (this.#byAgent ??= new Map());
    let agent = byAgent.get(call.agent);
    if (!agent) {
      agent = new SummaryTally();
      byAgent.set(call.agent, agent);
    }
    agent.add(call);
  }

  /** The totals so far, or `undefined` when no call was counted. */
  totals(): UsageTotals | undefined {
    const total = this.#total;
    if (!total) return undefined;
    const byAgent: Record<string, UsageSummary> = {};
    for (const [name, tally] of this.#byAgent ?? NO_AGENTS) byAgent[name] = tally.summary();
    return { ...total.summary(), byAgent };
  }
}

/**
 * Adds model calls up, in total, per model and per agent: what `run-end` carries as `usageTotals`.
 * `undefined` when there is no call.
 *
 * @example
 * ```ts
 * function report(events: readonly RunEvent[]): void {
 *   const totals = usageTotalsOf(events.filter((e): e is ModelCallEvent => e.type === 'model-call'));
 *   console.log(totals?.usage.totalTokens, totals?.byAgent.researcher?.byModel);
 * }
 * ```
 */
export function usageTotalsOf(calls: Iterable<UsageCall>): UsageTotals | undefined {
  const tally = new UsageTally();
  for (const call of calls) tally.add(call);
  return tally.totals();
}
