import type { ExpectedResponse } from '../eval-set.js';
import { rouge1 } from './rouge.js';
import { averageTurns, checkThreshold, type Scorer, type ScoreValue } from './scorer.js';

/**
 * Scores each turn's final response against `expect.response`'s `exact`, `contains` (one text or all
 * of a list) and `regex` (1 or 0; all given must hold). The case score is the mean over such turns.
 *
 * @example
 * ```ts
 * const scorer = responseScorer(); // threshold 1
 * ```
 */
export function responseScorer(options: { readonly threshold?: number } = {}): Scorer {
  const threshold = options.threshold ?? 1;
  checkThreshold('response', threshold);
  return {
    name: 'response',
    threshold,
    score: ({ turns }) =>
      averageTurns(turns, ({ turn, capture }) => {
        const expected = turn.expect?.response;
        if (
          !expected ||
          (expected.exact === undefined && expected.contains === undefined && expected.regex === undefined)
        )
          return undefined;
        return checkResponse(expected, capture.response);
      }),
  };
}

/**
 * Scores each turn's final response by ROUGE-1 overlap with `expect.response.reference`.
 *
 * @example
 * ```ts
 * const scorer = rougeScorer({ threshold: 0.8 });
 * ```
 */
export function rougeScorer(options: { readonly threshold?: number } = {}): Scorer {
  const threshold = options.threshold ?? 0.8;
  checkThreshold('rouge', threshold);
  return {
    name: 'rouge',
    threshold,
    score: ({ turns }) =>
      averageTurns(turns, ({ turn, capture }) => {
        const reference = turn.expect?.response?.reference;
        if (reference === undefined) return undefined;
        const score = rouge1(capture.response, reference);
        return { score, reason: `ROUGE-1 ${score.toFixed(2)}` };
      }),
  };
}

/** Checks a response against exact/contains/regex expectations; 1 or 0 with the reason. */
export function checkResponse(expected: ExpectedResponse, response: string): ScoreValue {
  const failures: string[] = [];
  if (expected.exact !== undefined && response.trim() !== expected.exact.trim())
    failures.push(`expected exactly ${JSON.stringify(expected.exact)}`);
  const contains = typeof expected.contains === 'string' ? [expected.contains] : (expected.contains ?? []);
  for (const text of contains)
    if (!response.includes(text)) failures.push(`does not contain ${JSON.stringify(text)}`);
  if (expected.regex !== undefined && !new RegExp(expected.regex, expected.flags ?? '').test(response))
    failures.push(`does not match /${expected.regex}/${expected.flags ?? ''}`);
  const shown = response.length > 120 ? `${response.slice(0, 117)}...` : response;
  return failures.length === 0
    ? { score: 1, reason: 'matches' }
    : { score: 0, reason: `${failures.join(', ')} (got ${JSON.stringify(shown)})` };
}
