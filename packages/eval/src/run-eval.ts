import { runThresholds } from './criteria.js';
import { type CaseRun, type EvalReport, summarize } from './eval-report.js';
import type { ArgsMatch, Criteria, EvalCase, EvalSet } from './eval-set.js';
import { EvaluationError } from './evaluation-error.js';
import { responseScorer, rougeScorer } from './scorers/response-scorer.js';
import type { Score, ScoreInput, Scorer, TurnResult } from './scorers/scorer.js';
import { trajectoryScorer } from './scorers/trajectory-scorer.js';
import type { EvalTarget } from './target.js';

/** Progress of a running eval, reported after each case run. */
export interface EvalProgress {
  readonly done: number;
  readonly total: number;
  readonly caseId: string;
  readonly repeat: number;
  readonly pass: boolean;
}

/** Options of {@link runEval}. */
export interface RunEvalOptions {
  readonly set: EvalSet;
  readonly target: EvalTarget;
  /** Default: trajectory (exact), response (exact/contains/regex) and ROUGE-1 (reference, 0.8). Add `llmJudge` for rubrics. */
  readonly scorers?: readonly Scorer[];
  /** Case runs at once (default 4). */
  readonly concurrency?: number;
  /** Runs of each case, for flaky models: the report gives pass@k (any passed) and pass^k (all passed). Default 1. */
  readonly repeats?: number;
  /** Only cases with one of these tags. */
  readonly tags?: readonly string[];
  /** Only these case ids. */
  readonly caseIds?: readonly string[];
  /** Price of a case run's usage, in your currency (e.g. from a price table). */
  readonly cost?: (usage: CaseRun['usage']) => number;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: EvalProgress) => void;
  /** The user id sessions run as (default `eval`). */
  readonly userId?: string;
  /**
   * Thresholds by scorer name for this run (Google ADK's criteria names accepted): over the set file's,
   * under a case's own. The CLI's `--threshold` and `--criteria` set them.
   */
  readonly criteria?: Criteria;
  /** How tool arguments compare unless a turn says: over the set file's `argsMatch` (default `partial`). */
  readonly argsMatch?: ArgsMatch;
}

/**
 * Runs every case of an eval set against a target: a fresh session per case run, turns in order,
 * `concurrency` case runs at once, each case `repeats` times; scores each run with every scorer that
 * applies. A case run passes when it raised no error, did not end paused while a turn expected an answer,
 * and every applicable scorer reached its threshold.
 *
 * @throws {EvaluationError} `INVALID_ARGUMENT` for a bad concurrency/repeats or a filter that leaves no case.
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['It is 5.']); // or any ChatModel
 * const agent = new ChatModelAgent({ name: 'calc', model });
 * const report = await runEval({ set: await loadEvalSet('evals/calc.yaml'), target: agentTarget(agent), repeats: 3 });
 * console.log(formatReportTable(report));
 * ```
 */
export async function runEval(options: RunEvalOptions): Promise<EvalReport> {
  const concurrency = positive('concurrency', options.concurrency ?? 4);
  const repeats = positive('repeats', options.repeats ?? 1);
  const scorers = options.scorers ?? [trajectoryScorer(), responseScorer(), rougeScorer()];
  const thresholdOf = runThresholds(options.set, options.criteria, scorers);
  const cases = selectCases(options);
  const jobs = cases.flatMap((evalCase) =>
    Array.from({ length: repeats }, (_, repeat) => ({ evalCase, repeat })),
  );
  const runs: CaseRun[] = new Array(jobs.length);
  const signal = options.signal ?? new AbortController().signal;
  const started = Date.now();
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length && !signal.aborted) {
      const index = next++;
      const job = jobs[index] as (typeof jobs)[number];
      const run = await runCase({ ...job, options, scorers, thresholdOf, signal });
      runs[index] = run;
      done += 1;
      options.onProgress?.({
        done,
        total: jobs.length,
        caseId: run.caseId,
        repeat: run.repeat,
        pass: run.pass,
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, worker));
  if (signal.aborted)
    throw new EvaluationError('INVALID_ARGUMENT', 'the eval run was aborted', { cause: signal.reason });
  return summarize({
    set: options.set,
    target: options.target.name,
    cases,
    runs,
    repeats,
    durationMs: Date.now() - started,
  });
}

async function runCase(input: {
  evalCase: EvalCase;
  repeat: number;
  options: RunEvalOptions;
  scorers: readonly Scorer[];
  thresholdOf: (scorer: Scorer, evalCase: EvalCase) => number;
  signal: AbortSignal;
}): Promise<CaseRun> {
  const { evalCase, repeat, options, signal } = input;
  const sessionId = `${evalCase.id}#${repeat}`;
  const turns: TurnResult[] = [];
  let error: string | undefined;
  for (const [index, turn] of evalCase.turns.entries()) {
    const capture = await options.target.runTurn({
      turn,
      sessionId,
      userId: options.userId ?? 'eval',
      ...(index === 0 && evalCase.state ? { state: evalCase.state } : {}),
      signal,
    });
    turns.push({ turn, capture });
    if (capture.error) {
      error = `turn ${index + 1}: ${capture.error.code}: ${capture.error.message}`;
      break;
    }
    const nextTurn = evalCase.turns[index + 1];
    if (capture.interrupts && nextTurn !== undefined && nextTurn.resume === undefined) {
      error = `turn ${index + 1} ended paused (${capture.interrupts.map((i) => i.id).join(', ')}) and no resume turn follows`;
      break;
    }
  }
  options.target.endSession?.(sessionId);
  const argsMatch = options.argsMatch ?? options.set.argsMatch;
  const scores =
    error === undefined
      ? await scoreAll(input.scorers, (scorer) => input.thresholdOf(scorer, evalCase), {
          evalCase,
          turns,
          signal,
          ...(argsMatch ? { argsMatch } : {}),
        })
      : [];
  const usage = turns.reduce(
    (sum, { capture }) => ({
      inputTokens: sum.inputTokens + capture.usage.inputTokens,
      outputTokens: sum.outputTokens + capture.usage.outputTokens,
      totalTokens: sum.totalTokens + capture.usage.totalTokens,
      modelCalls: sum.modelCalls + capture.usage.modelCalls,
    }),
    { inputTokens: 0, outputTokens: 0, totalTokens: 0, modelCalls: 0 },
  );
  return {
    caseId: evalCase.id,
    repeat,
    turns,
    scores,
    pass: error === undefined && scores.every((score) => score.pass),
    ...(error !== undefined ? { error } : {}),
    latencyMs: turns.reduce((sum, t) => sum + t.capture.latencyMs, 0),
    usage,
    ...(options.cost ? { cost: options.cost(usage) } : {}),
  };
}

async function scoreAll(
  scorers: readonly Scorer[],
  thresholdOf: (scorer: Scorer) => number,
  input: ScoreInput & { signal: AbortSignal },
): Promise<Score[]> {
  const scores: Score[] = [];
  for (const scorer of scorers) {
    const threshold = thresholdOf(scorer);
    try {
      const value = await scorer.score(input);
      if (value === undefined) continue;
      scores.push({ ...value, scorer: scorer.name, threshold, pass: value.score >= threshold });
    } catch (error) {
      scores.push({
        scorer: scorer.name,
        threshold,
        score: 0,
        pass: false,
        reason: `scorer failed: ${(error as Error).message}`,
      });
    }
  }
  return scores;
}

function selectCases(options: RunEvalOptions): EvalCase[] {
  const cases = options.set.cases.filter(
    (c) =>
      (options.tags === undefined || c.tags.some((tag) => options.tags?.includes(tag))) &&
      (options.caseIds === undefined || options.caseIds.includes(c.id)),
  );
  if (cases.length === 0)
    throw new EvaluationError(
      'INVALID_ARGUMENT',
      `no case of "${options.set.name}" matches the tags/ids filter`,
    );
  return cases;
}

function positive(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1)
    throw new EvaluationError(
      'INVALID_ARGUMENT',
      `runEval: ${name} must be a whole number >= 1, got ${value}`,
    );
  return value;
}
