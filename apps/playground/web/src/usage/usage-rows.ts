import type { WireEvent } from '../../../src/shared/wire.ts';
import { callUsage } from './call-usage.ts';

/** One agent's model calls in a run, and their tokens. */
export interface UsageRow {
  readonly agent: string;
  readonly calls: readonly WireEvent[];
  readonly tokens: number;
}

function tokensOf(event: WireEvent): number {
  return callUsage(event)?.totalTokens ?? 0;
}

/**
 * The run's model calls per agent (in the order each first called), from its `model-call` events.
 *
 * @example
 * ```ts
 * usageRows(events).map((row) => row.agent); // ['supervisor', 'researcher']
 * ```
 */
export function usageRows(events: readonly WireEvent[]): UsageRow[] {
  const rows = new Map<string, { calls: WireEvent[]; tokens: number }>();
  for (const event of events) {
    if (event.type !== 'model-call') continue;
    const agent = typeof event.agent === 'string' ? event.agent : '(no agent)';
    const row = rows.get(agent) ?? { calls: [], tokens: 0 };
    row.calls.push(event);
    row.tokens += tokensOf(event);
    rows.set(agent, row);
  }
  return [...rows].map(([agent, row]) => ({ agent, ...row }));
}
