import type { CapturedUsage } from './capture/turn-capture.js';
import type { EvalCase, EvalSet } from './eval-set.js';
import type { Score, TurnResult } from './scorers/scorer.js';

/** One run of one case. */
export interface CaseRun {
  readonly caseId: string;
  /** 0-based repeat number. */
  readonly repeat: number;
  readonly turns: readonly TurnResult[];
  readonly scores: readonly Score[];
  readonly pass: boolean;
  /** Why the run stopped early (a failed turn, an unanswered pause). */
  readonly error?: string;
  /** Wall-clock milliseconds of all turns (reported, never asserted on). */
  readonly latencyMs: number;
  readonly usage: CapturedUsage;
  readonly cost?: number;
}

/** All runs of one case. */
export interface CaseSummary {
  readonly caseId: string;
  readonly tags: readonly string[];
  readonly runs: readonly CaseRun[];
  /** How many runs passed. */
  readonly passes: number;
  /** pass@k: at least one of the k runs passed. */
  readonly passAtK: boolean;
  /** pass^k: every run passed. */
  readonly passAllK: boolean;
}

/** The result of {@link runEval}: per case, per run, and totals. */
export interface EvalReport {
  readonly set: string;
  readonly target: string;
  readonly repeats: number;
  readonly durationMs: number;
  readonly cases: readonly CaseSummary[];
  readonly totals: {
    readonly cases: number;
    /** Cases that passed at k. */
    readonly passed: number;
    /** Cases whose every run passed. */
    readonly passedAll: number;
    /** Passed runs / all runs. */
    readonly runPassRate: number;
    readonly totalTokens: number;
    readonly cost?: number;
  };
}

/** Builds the report from the case runs (in case order). */
export function summarize(input: {
  set: EvalSet;
  target: string;
  cases: readonly EvalCase[];
  runs: readonly CaseRun[];
  repeats: number;
  durationMs: number;
}): EvalReport {
  const summaries = input.cases.map((evalCase): CaseSummary => {
    const runs = input.runs.filter((run) => run.caseId === evalCase.id);
    const passes = runs.filter((run) => run.pass).length;
    return {
      caseId: evalCase.id,
      tags: evalCase.tags,
      runs,
      passes,
      passAtK: passes > 0,
      passAllK: passes === runs.length,
    };
  });
  const costs = input.runs.map((run) => run.cost).filter((cost): cost is number => cost !== undefined);
  return {
    set: input.set.name,
    target: input.target,
    repeats: input.repeats,
    durationMs: input.durationMs,
    cases: summaries,
    totals: {
      cases: summaries.length,
      passed: summaries.filter((s) => s.passAtK).length,
      passedAll: summaries.filter((s) => s.passAllK).length,
      runPassRate: input.runs.length === 0 ? 0 : input.runs.filter((r) => r.pass).length / input.runs.length,
      totalTokens: input.runs.reduce((sum, run) => sum + run.usage.totalTokens, 0),
      ...(costs.length > 0 ? { cost: costs.reduce((a, b) => a + b, 0) } : {}),
    },
  };
}

/** True when every case passed (at k). */
export function reportPassed(report: EvalReport): boolean {
  return report.totals.passed === report.totals.cases;
}
