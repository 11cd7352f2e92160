import type { EvalReport } from '../eval-report.js';

/**
 * Renders a report as a plain-text table for the terminal: one row per case (runs passed, each scorer's
 * mean score, tokens, mean latency), the first failure reason under a failing case, and a totals line.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['It is 5.']); // or any ChatModel
 * const agent = new ChatModelAgent({ name: 'calc', model });
 * const set = parseEvalSet({
 *   name: 'calc',
 *   cases: [{ id: 'adds', turns: [{ user: 'What is 2 plus 3?', expect: { response: { contains: '5' } } }] }],
 * });
 * console.log(formatReportTable(await runEval({ set, target: agentTarget(agent) })));
 * ```
 */
export function formatReportTable(report: EvalReport): string {
  const scorerNames = [
    ...new Set(report.cases.flatMap((c) => c.runs.flatMap((r) => r.scores.map((s) => s.scorer)))),
  ];
  const header = ['case', 'result', 'runs', ...scorerNames, 'tokens', 'ms'];
  const rows: string[][] = [];
  const notes: string[] = [];
  for (const summary of report.cases) {
    const runs = summary.runs;
    const meanOf = (name: string): string => {
      const scores = runs.flatMap((r) => r.scores.filter((s) => s.scorer === name).map((s) => s.score));
      return scores.length === 0 ? '-' : (scores.reduce((a, b) => a + b, 0) / scores.length).toFixed(2);
    };
    const tokens = runs.reduce((sum, r) => sum + r.usage.totalTokens, 0);
    const ms =
      runs.length === 0 ? 0 : Math.round(runs.reduce((sum, r) => sum + r.latencyMs, 0) / runs.length);
    rows.push([
      summary.caseId,
      summary.passAtK ? 'PASS' : 'FAIL',
      `${summary.passes}/${runs.length}`,
      ...scorerNames.map(meanOf),
      String(tokens),
      String(ms),
    ]);
    const failed = runs.find((r) => !r.pass);
    if (failed) {
      const reason = failed.error ?? failed.scores.find((s) => !s.pass)?.reason ?? 'failed';
      notes.push(`  ${summary.caseId} (run ${failed.repeat + 1}): ${reason}`);
    }
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  const t = report.totals;
  const k = report.repeats > 1 ? ` (pass@${report.repeats}; every run passed: ${t.passedAll})` : '';
  return [
    `${report.set} against ${report.target}`,
    line(header),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
    ...(notes.length > 0 ? ['', 'failures:', ...notes] : []),
    '',
    `${t.passed}/${t.cases} cases passed${k}; ${t.totalTokens} tokens${t.cost !== undefined ? `; cost ${t.cost.toFixed(4)}` : ''}; ${report.durationMs} ms`,
  ].join('\n');
}
