import type { Criteria, EvalCase, EvalSet } from './eval-set.js';
import { EvaluationError } from './evaluation-error.js';
import type { Scorer } from './scorers/scorer.js';

/** Google ADK's metric names (`test_config.json` criteria) and the Weft scorer each is. */
export const ADK_CRITERIA: Readonly<Record<string, string>> = {
  tool_trajectory_avg_score: 'trajectory',
  response_match_score: 'rouge',
  final_response_match_v2: 'judge',
  response_evaluation_score: 'judge',
};

const BUILT_IN = ['trajectory', 'response', 'rouge', 'judge'];

/** Criteria by Weft scorer name, ADK names translated; unknown names refused, naming `where`. */
function normalized(criteria: Criteria | undefined, where: string, known: readonly string[]): Criteria {
  const result: Record<string, number> = {};
  for (const [name, threshold] of Object.entries(criteria ?? {})) {
    const scorer = ADK_CRITERIA[name] ?? name;
    if (!known.includes(scorer))
      throw new EvaluationError(
        'INVALID_ARGUMENT',
        `${where}: no scorer "${name}"; known: ${known.join(', ')}`,
      );
    if (!(typeof threshold === 'number' && threshold >= 0 && threshold <= 1))
      throw new EvaluationError(
        'INVALID_ARGUMENT',
        `${where}.${name}: a threshold is a number from 0 to 1, got ${String(threshold)}`,
      );
    result[scorer] = threshold;
  }
  return result;
}

/**
 * The thresholds of one eval run, resolved per case: a case's `criteria` win over the run's (`runEval`'s
 * `criteria`, the CLI's `--threshold` and `--criteria`), which win over the set file's, which win over
 * each scorer's own threshold.
 *
 * @throws {EvaluationError} `INVALID_ARGUMENT` naming a criterion that names no scorer of the run (nor a
 *   built-in one) or a threshold outside [0, 1], and where it is written.
 */
export function runThresholds(
  set: EvalSet,
  run: Criteria | undefined,
  scorers: readonly Scorer[],
): (scorer: Scorer, evalCase: EvalCase) => number {
  const known = [...BUILT_IN, ...scorers.map((s) => s.name).filter((n) => !BUILT_IN.includes(n))];
  const fromSet = normalized(set.criteria, 'criteria', known);
  const fromRun = normalized(run, 'the run criteria', known);
  const byCase = new Map<string, Criteria>();
  set.cases.forEach((evalCase, index) => {
    byCase.set(evalCase.id, normalized(evalCase.criteria, `cases.${index}.criteria`, known));
  });
  return (scorer, evalCase) =>
    byCase.get(evalCase.id)?.[scorer.name] ??
    fromRun[scorer.name] ??
    fromSet[scorer.name] ??
    scorer.threshold;
}
