import type { WireEvent } from '../../../src/shared/wire.ts';
import { costLabel, costOfCalls } from './cost-model.ts';
import { usePrices } from './prices-context.ts';
import { usageRows } from './usage-rows.ts';

/**
 * Tokens and cost of the run's model calls per agent and in all, priced with the app's price table
 * (models without a price are named instead).
 */
export function UsageTable(props: { readonly events: readonly WireEvent[] }) {
  const prices = usePrices();
  const rows = usageRows(props.events);
  if (rows.length === 0) return null;
  const all = rows.flatMap((row) => row.calls);
  const cost = (calls: readonly WireEvent[]) => {
    const summary = costOfCalls(calls, prices);
    return summary ? costLabel(summary) : '';
  };
  const n = (value: number) => value.toLocaleString('en-US');
  return (
    <table className="usage-table" data-testid="usage-by-agent">
      <thead>
        <tr>
          <th>agent</th>
          <th>calls</th>
          <th>tokens</th>
          <th>cost</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.agent} data-testid="usage-row">
            <td>{row.agent}</td>
            <td>{row.calls.length}</td>
            <td>{n(row.tokens)}</td>
            <td data-testid="usage-row-cost">{cost(row.calls)}</td>
          </tr>
        ))}
        <tr className="usage-total" data-testid="usage-total">
          <td>run</td>
          <td>{all.length}</td>
          <td>{n(rows.reduce((sum, row) => sum + row.tokens, 0))}</td>
          <td>{cost(all)}</td>
        </tr>
      </tbody>
    </table>
  );
}
