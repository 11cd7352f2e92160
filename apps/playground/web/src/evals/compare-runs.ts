import type { EvalReport } from '@weft/eval';

/** How a case changed between two runs. */
export type CaseChange = 'fixed' | 'regressed' | 'same-pass' | 'same-fail' | 'added' | 'removed';

/** One case of a comparison: its result in each run and its mean score per scorer. */
export interface CaseComparison {
  readonly caseId: string;
  readonly before: boolean | undefined;
  readonly after: boolean | undefined;
  readonly change: CaseChange;
  /** Scorer → [mean before, mean after] (undefined where the scorer did not apply). */
  readonly scores: ReadonlyMap<string, readonly [number | undefined, number | undefined]>;
}

function meanScores(report: EvalReport, caseId: string): Map<string, number> {
  const runs = report.cases.find((c) => c.caseId === caseId)?.runs ?? [];
  const sums = new Map<string, { sum: number; n: number }>();
  for (const run of runs)
    for (const score of run.scores) {
      const entry = sums.get(score.scorer) ?? { sum: 0, n: 0 };
      sums.set(score.scorer, { sum: entry.sum + score.score, n: entry.n + 1 });
    }
  return new Map([...sums].map(([name, { sum, n }]) => [name, sum / n]));
}

/**
 * Compares two reports of the same eval set case by case (a case passes when it passed at k): which
 * cases a change fixed or broke, and each scorer's mean score before and after.
 */
export function compareReports(before: EvalReport, after: EvalReport): CaseComparison[] {
  const ids = [...new Set([...before.cases.map((c) => c.caseId), ...after.cases.map((c) => c.caseId)])];
  return ids.map((caseId) => {
    const a = before.cases.find((c) => c.caseId === caseId)?.passAtK;
    const b = after.cases.find((c) => c.caseId === caseId)?.passAtK;
    const change: CaseChange =
      a === undefined
        ? 'added'
        : b === undefined
          ? 'removed'
          : a === b
            ? a
              ? 'same-pass'
              : 'same-fail'
            : b
              ? 'fixed'
              : 'regressed';
    const sa = meanScores(before, caseId);
    const sb = meanScores(after, caseId);
    const scores = new Map(
      [...new Set([...sa.keys(), ...sb.keys()])].map((name) => [name, [sa.get(name), sb.get(name)] as const]),
    );
    return { caseId, before: a, after: b, change, scores };
  });
}
