import type { CapturedToolCall } from '../capture/turn-capture.js';
import type { ArgsMatch, ExpectedToolCall, TrajectoryMatch } from '../eval-set.js';
import { type MatchResult, matchValue } from '../matchers.js';
import { averageTurns, checkThreshold, type Scorer, type ScoreValue } from './scorer.js';

/** Options of {@link trajectoryScorer}. */
export interface TrajectoryScorerOptions {
  /** How expected and actual calls compare when a turn does not say (`toolMatch`); default `'exact'`. */
  readonly match?: TrajectoryMatch;
  /**
   * How arguments compare when neither the turn, the run nor the set says (`argsMatch`); default
   * `'partial'`.
   */
  readonly args?: ArgsMatch;
  /** Default 1: every turn with expected tools must match. */
  readonly threshold?: number;
}

/**
 * Scores the tool trajectory of each turn that lists `expect.tools` (1 when it matches, else 0; the case
 * score is the mean over those turns). Modes, as Google ADK names them plus one:
 * - `exact`: the same calls in the same order, nothing else;
 * - `inOrder`: the expected calls appear in this order, other calls may come between;
 * - `anyOrder`: every expected call appears, in any order, other calls allowed;
 * - `subset`: every call made is one of the expected ones (nothing unexpected was called).
 * Arguments compare with {@link matchValue} (`$regex`, `$any`, …): partially by default (extra actual
 * arguments are fine), or `exact` (agentevals' and Google ADK's equality), `subset` (nothing beyond the
 * expected arguments) or `ignore` — the turn's `argsMatch`, else the run's, else the set's, else `args`.
 *
 * @example
 * ```ts
 * const scorer = trajectoryScorer({ match: 'inOrder' });
 * ```
 */
export function trajectoryScorer(options: TrajectoryScorerOptions = {}): Scorer {
  const threshold = options.threshold ?? 1;
  checkThreshold('trajectory', threshold);
  return {
    name: 'trajectory',
    threshold,
    score: ({ turns, argsMatch }) =>
      averageTurns(turns, ({ turn, capture }) => {
        const expected = turn.expect?.tools;
        if (expected === undefined) return undefined;
        return compareTrajectory(
          expected,
          capture.toolCalls,
          turn.expect?.toolMatch ?? options.match ?? 'exact',
          turn.expect?.argsMatch ?? argsMatch ?? options.args ?? 'partial',
        );
      }),
  };
}

/**
 * Compares expected tool calls with actual ones under a match mode; score 1 or 0 with the reason.
 *
 * @example
 * ```ts
 * compareTrajectory([{ name: 'add' }], [{ name: 'add', args: { a: 1 }, id: 'c1', author: 'calc' }], 'exact');
 * // → { score: 1, reason: 'exact: add' }
 * ```
 */
export function compareTrajectory(
  expected: readonly ExpectedToolCall[],
  actual: readonly CapturedToolCall[],
  match: TrajectoryMatch,
  args: ArgsMatch = 'partial',
): ScoreValue {
  const actualNames = actual.map((call) => call.name).join(', ') || '(no calls)';
  const fits = (e: ExpectedToolCall, a: CapturedToolCall): boolean =>
    e.name === a.name && matchArgs(e.args, a.args, args).ok;
  const result = (ok: boolean, why: string): ScoreValue => ({
    score: ok ? 1 : 0,
    reason: ok ? `${match}: ${actualNames}` : `${match}: ${why} (called ${actualNames})`,
  });
  switch (match) {
    case 'exact': {
      if (expected.length !== actual.length)
        return result(false, `expected ${expected.length} calls, got ${actual.length}`);
      const at = expected.findIndex((e, i) => !fits(e, actual[i] as CapturedToolCall));
      return result(
        at < 0,
        at < 0 ? '' : explain(expected[at] as ExpectedToolCall, actual[at] as CapturedToolCall, at, args),
      );
    }
    case 'inOrder': {
      let next = 0;
      for (const call of actual)
        if (next < expected.length && fits(expected[next] as ExpectedToolCall, call)) next += 1;
      return result(
        next === expected.length,
        `expected call ${next + 1} (${expected[next]?.name}) not found in order`,
      );
    }
    case 'anyOrder': {
      const used = new Set<number>();
      const missing = expected.find((e) => {
        const index = actual.findIndex((a, i) => !used.has(i) && fits(e, a));
        if (index < 0) return true;
        used.add(index);
        return false;
      });
      return result(missing === undefined, `expected call ${missing?.name} not made`);
    }
    case 'subset': {
      const extra = actual.find((a) => !expected.some((e) => fits(e, a)));
      return result(extra === undefined, `unexpected call ${extra?.name}`);
    }
  }
}

/**
 * Compares a call's arguments under an {@link ArgsMatch} mode; `undefined` expected arguments match any.
 * `subset` is agentevals': every actual argument is an expected one with an equal value.
 */
function matchArgs(expected: unknown, actual: unknown, mode: ArgsMatch): MatchResult {
  if (mode === 'ignore' || expected === undefined) return { ok: true };
  if (mode !== 'subset') return matchValue(expected, actual, '$', mode);
  if (typeof actual !== 'object' || actual === null || typeof expected !== 'object' || expected === null)
    return matchValue(expected, actual, '$', 'exact');
  for (const [key, value] of Object.entries(actual)) {
    if (!(key in expected)) return { ok: false, path: `$.${key}`, reason: 'not expected (subset arguments)' };
    const result = matchValue((expected as Record<string, unknown>)[key], value, `$.${key}`, 'exact');
    if (!result.ok) return result;
  }
  return { ok: true };
}

function explain(
  expected: ExpectedToolCall,
  actual: CapturedToolCall,
  index: number,
  args: ArgsMatch,
): string {
  if (expected.name !== actual.name)
    return `call ${index + 1}: expected ${expected.name}, got ${actual.name}`;
  const mismatch = matchArgs(expected.args, actual.args, args);
  return mismatch.ok
    ? ''
    : `call ${index + 1} (${actual.name}) arguments ${mismatch.path}: ${mismatch.reason}`;
}
