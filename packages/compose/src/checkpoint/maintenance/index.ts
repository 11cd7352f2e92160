export {
  type CheckpointLink,
  type DeleteOutcome,
  type DeleteSkipped,
  isMaintainable,
  type ListThreadsOptions,
  type MaintainableCheckpointer,
  PAUSED_WRITE_PREFIX,
  type ThreadSummary,
} from './checkpoint-maintenance.js';
export {
  maintainable,
  type PruneOptions,
  type PruneReport,
  type PruneSkip,
  pruneCheckpoints,
  type RetentionPolicies,
} from './prune-checkpoints.js';
export { checkRetentionPolicy, planRetention, type RetentionPolicy } from './retention-policy.js';
export {
  type Retention,
  type RetentionOptions,
  type RetentionReport,
  startRetention,
} from './retention-sweeper.js';
