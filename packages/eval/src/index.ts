/**
 * `@weft/eval` — evaluation of Weft agents against eval sets (YAML/JSON cases with expected responses
 * and tool trajectories).
 *
 * For people testing agents: loading eval sets, running them against a target, scorers (built in and
 * your own), reports, capture/cassette helpers to record and replay model calls, and `runEvalCli` (the
 * `weft-eval` and `weft eval` commands). ROUGE's arithmetic stays inside (use `rougeScorer`).
 * `@weft/eval/vitest` turns an eval set into vitest tests.
 *
 * @packageDocumentation
 */

export {
  type ReplayNode,
  type ReplayOptions,
  type ReplayReport,
  type ReplayStep,
  replayThread,
} from '@weft/compose/maintenance';
export {
  type CapturedToolCall,
  type CapturedUsage,
  captureTurn,
  type TurnCapture,
} from './capture/turn-capture.js';
export {
  type CassetteMiss,
  type CassetteModel,
  type CassetteOptions,
  cassetteModel,
} from './cassette/cassette-model.js';
export { type EvalCliIo, runEvalCli } from './cli/run-eval-cli.js';
export { type CaseRun, type CaseSummary, type EvalReport, reportPassed } from './eval-report.js';
export {
  type ArgsMatch,
  type Criteria,
  type EvalCase,
  type EvalSet,
  type EvalTurn,
  type ExpectedResponse,
  type ExpectedToolCall,
  evalSetSchema,
  loadEvalSet,
  parseEvalSet,
  type TrajectoryMatch,
} from './eval-set.js';
export { EvaluationError, type EvaluationErrorCode } from './evaluation-error.js';
export { type AnyGraph, type GraphTargetOptions, graphTarget } from './graph-target.js';
export { type MatchResult, matchValue } from './matchers.js';
export { formatReplayReport } from './replay/format-replay.js';
export { recordedModel } from './replay/recorded-model.js';
export { formatJUnit } from './report/format-junit.js';
export { formatReportTable } from './report/format-table.js';
export { type EvalProgress, type RunEvalOptions, runEval } from './run-eval.js';
export { type LlmJudgeOptions, llmJudge } from './scorers/llm-judge.js';
export { responseScorer, rougeScorer } from './scorers/response-scorer.js';
export {
  defineScorer,
  type Score,
  type ScoreInput,
  type Scorer,
  type ScoreValue,
  type TurnResult,
} from './scorers/scorer.js';
export {
  compareTrajectory,
  type TrajectoryScorerOptions,
  trajectoryScorer,
} from './scorers/trajectory-scorer.js';
export { type AgentTargetOptions, agentTarget, type EvalTarget, type TurnRequest } from './target.js';
