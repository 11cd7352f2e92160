import type { EvalRunInfo } from '../../../src/shared/eval-wire.ts';
import { compareReports } from './compare-runs.ts';

const LABEL = {
  fixed: 'fixed',
  regressed: 'regressed',
  'same-pass': 'pass',
  'same-fail': 'still failing',
  added: 'new',
  removed: 'gone',
};

/** Two runs of a set side by side (older first): each case's result in both, what changed, score deltas. */
export function RunComparison({ runs }: { readonly runs: readonly [EvalRunInfo, EvalRunInfo] }) {
  const [before, after] = [...runs].sort((a, b) => a.startedAt - b.startedAt) as [EvalRunInfo, EvalRunInfo];
  if (!before.report || !after.report) return null;
  const rows = compareReports(before.report, after.report);
  const fmt = (v: number | undefined) => (v === undefined ? '—' : v.toFixed(2));
  return (
    <section className="eval-compare" data-testid="eval-compare">
      <h3>
        {before.agentId} ({new Date(before.startedAt).toLocaleTimeString()}) → {after.agentId} (
        {new Date(after.startedAt).toLocaleTimeString()})
      </h3>
      <table className="eval-cases">
        <thead>
          <tr>
            <th>case</th>
            <th>before</th>
            <th>after</th>
            <th>change</th>
            <th>scores</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.caseId} data-testid="eval-compare-row" data-change={row.change}>
              <td>{row.caseId}</td>
              <td>{row.before === undefined ? '—' : row.before ? 'pass' : 'fail'}</td>
              <td>{row.after === undefined ? '—' : row.after ? 'pass' : 'fail'}</td>
              <td className={`eval-change eval-change-${row.change}`}>{LABEL[row.change]}</td>
              <td className="muted">
                {[...row.scores].map(([name, [a, b]]) => `${name} ${fmt(a)} → ${fmt(b)}`).join(' · ')}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
