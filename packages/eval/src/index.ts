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
export { type MatchResult, matchValue } from './matchers.js';
export { formatJUnit } from './report/format-junit.js';
export { formatReportTable } from './report/format-table.js';
export { type EvalProgress, type RunEvalOptions, runEval } from './run-eval.js';
export { type LlmJudgeOptions, llmJudge } from './scorers/llm-judge.js';
export { responseScorer, rougeScorer } from './scorers/response-scorer.js';
export { rouge1 } from './scorers/rouge.js';
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
