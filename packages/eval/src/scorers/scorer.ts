import type { TurnCapture } from '../capture/turn-capture.js';
import type { ArgsMatch, EvalCase, EvalTurn } from '../eval-set.js';
import { EvaluationError } from '../evaluation-error.js';

/** One turn of a case as it ran: what the set asked and what the agent did. */
export interface TurnResult {
  readonly turn: EvalTurn;
  readonly capture: TurnCapture;
}

/** What a scorer reads: the case and its turns as they ran. */
export interface ScoreInput {
  readonly evalCase: EvalCase;
  readonly turns: readonly TurnResult[];
  /** How tool arguments compare in this run unless a turn says: the run's `argsMatch`, else the set's. */
  readonly argsMatch?: ArgsMatch;
  /** Aborted when the eval run is cancelled. */
  readonly signal?: AbortSignal;
}

/** A scorer's verdict on one case: a score in [0, 1] and why. */
export interface ScoreValue {
  readonly score: number;
  readonly reason: string;
}

/** A scorer's verdict with its name and pass/fail against its threshold. */
export interface Score extends ScoreValue {
  readonly scorer: string;
  readonly threshold: number;
  readonly pass: boolean;
}

/**
 * Scores a case in [0, 1]. Returns `undefined` when the case expects nothing this scorer checks (it
 * then does not count). A case passes when every scorer that applies reaches its threshold.
 *
 * @example
 * ```ts
 * const polite: Scorer = defineScorer('polite', 1, ({ turns }) => {
 *   const rude = turns.filter((t) => /stupid/i.test(t.capture.response)).length;
 *   return { score: rude === 0 ? 1 : 0, reason: `${rude} rude answers` };
 * });
 * ```
 */
export interface Scorer {
  readonly name: string;
  /** The least score that passes. */
  readonly threshold: number;
  score(input: ScoreInput): Promise<ScoreValue | undefined> | ScoreValue | undefined;
}

/**
 * Makes a custom scorer from a function.
 *
 * @throws {EvaluationError} `INVALID_ARGUMENT` when the threshold is outside [0, 1].
 * @example
 * ```ts
 * const short = defineScorer('short-answers', 1, ({ turns }) => ({
 *   score: turns.every((t) => t.capture.response.length < 200) ? 1 : 0,
 *   reason: 'every answer under 200 characters',
 * }));
 * ```
 */
export function defineScorer(name: string, threshold: number, score: Scorer['score']): Scorer {
  checkThreshold(name, threshold);
  return { name, threshold, score };
}

/** Averages per-turn scores into one case score; `undefined` when no turn applied. */
export function averageTurns(
  turns: readonly TurnResult[],
  scoreTurn: (turn: TurnResult, index: number) => ScoreValue | undefined,
): ScoreValue | undefined {
  const scored = turns
    .map((turn, index) => ({ index, value: scoreTurn(turn, index) }))
    .filter((entry): entry is { index: number; value: ScoreValue } => entry.value !== undefined);
  if (scored.length === 0) return undefined;
  const score = scored.reduce((sum, entry) => sum + entry.value.score, 0) / scored.length;
  const reason = scored.map((entry) => `turn ${entry.index + 1}: ${entry.value.reason}`).join('; ');
  return { score, reason };
}

/** Rejects a threshold outside [0, 1], naming the scorer. */
export function checkThreshold(name: string, threshold: number): void {
  if (!(threshold >= 0 && threshold <= 1))
    throw new EvaluationError(
      'INVALID_ARGUMENT',
      `scorer "${name}": threshold must be between 0 and 1, got ${threshold}`,
    );
}
