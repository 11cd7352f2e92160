export {
  type CheckpointLink,
  type DeleteOutcome,
  type DeleteSkipped,
  isMaintainable,
  type ListThreadsOptions,
  type MaintainableCheckpointer,
  PAUSED_WRITE_PREFIX,
  type Rebase,
  type RebaseOutcome,
  type ThreadSummary,
} from './checkpoint-maintenance.js';
export { type CheckpointStats, checkpointStats, type GraphStats } from './checkpoint-stats.js';
export { type CompactOptions, type CompactReport, compactThread } from './compact-thread.js';
export {
  maintainable,
  type PruneOptions,
  type PruneReport,
  type PruneSkip,
  pruneCheckpoints,
  type RetentionPolicies,
} from './prune-checkpoints.js';
export {
  type ReplayDifference,
  type ReplayNode,
  type ReplayOptions,
  type ReplayReport,
  type ReplayStep,
  type ReplayStepReport,
  replayThread,
} from './replay-thread.js';
export { checkRetentionPolicy, planRetention, type RetentionPolicy } from './retention-policy.js';
export {
  type Retention,
  type RetentionOptions,
  type RetentionReport,
  startRetention,
} from './retention-sweeper.js';
export { exportThread, importThread, type ThreadExport } from './thread-export.js';
export {
  type VerifyIssue,
  type VerifyOptions,
  type VerifyReport,
  verifyCheckpoints,
} from './verify-checkpoints.js';
