import { useState } from 'react';
import type { EvalRunInfo } from '../../../src/shared/eval-wire.ts';
import { CaseDetail } from './case-detail.tsx';

/** One run's report: a row per case (pass@k, runs passed, scorer means, tokens), expandable to details. */
export function RunReport({ run }: { readonly run: EvalRunInfo }) {
  const [open, setOpen] = useState<string | undefined>();
  const report = run.report;
  if (!report) return null;
  const scorers = [
    ...new Set(report.cases.flatMap((c) => c.runs.flatMap((r) => r.scores.map((s) => s.scorer)))),
  ];
  return (
    <section className="eval-report" data-testid="eval-report">
      <h3>
        {run.agentId} · {report.totals.passed}/{report.totals.cases} cases passed
        {report.repeats > 1 ? ` (pass@${report.repeats})` : ''} · {report.totals.totalTokens} tokens
      </h3>
      <table className="eval-cases">
        <thead>
          <tr>
            <th>case</th>
            <th>result</th>
            <th>runs</th>
            {scorers.map((s) => (
              <th key={s}>{s}</th>
            ))}
            <th>tokens</th>
          </tr>
        </thead>
        <tbody>
          {report.cases.map((summary) => {
            const mean = (name: string) => {
              const values = summary.runs.flatMap((r) =>
                r.scores.filter((s) => s.scorer === name).map((s) => s.score),
              );
              return values.length === 0
                ? '—'
                : (values.reduce((a, b) => a + b, 0) / values.length).toFixed(2);
            };
            const shown = summary.runs.find((r) => !r.pass) ?? summary.runs[0];
            return [
              <tr
                key={summary.caseId}
                className="eval-case-row"
                data-testid="eval-case"
                data-case={summary.caseId}
                onClick={() => setOpen(open === summary.caseId ? undefined : summary.caseId)}
              >
                <td>{summary.caseId}</td>
                <td>
                  <span className={`badge ${summary.passAtK ? 'badge-done' : 'badge-error'}`}>
                    {summary.passAtK ? 'pass' : 'fail'}
                  </span>
                </td>
                <td>
                  {summary.passes}/{summary.runs.length}
                </td>
                {scorers.map((s) => (
                  <td key={s}>{mean(s)}</td>
                ))}
                <td>{summary.runs.reduce((n, r) => n + r.usage.totalTokens, 0)}</td>
              </tr>,
              open === summary.caseId && shown && (
                <tr key={`${summary.caseId}-detail`}>
                  <td colSpan={4 + scorers.length}>
                    <CaseDetail run={shown} />
                  </td>
                </tr>
              ),
            ];
          })}
        </tbody>
      </table>
    </section>
  );
}
