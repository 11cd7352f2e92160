/**
 * `@weft/compose/maintenance` — for the people who run Weft's stores in production: retention
 * (`pruneCheckpoints`, `startRetention`), compaction (`compactThread`), integrity (`verifyCheckpoints`),
 * `checkpointStats`, thread export and import as JSON, and `replayThread` (production threads as
 * regression tests). A separate entry so that graphs in a browser bundle never carry it; the stores'
 * side of the contract (`MaintainableCheckpointer`) is in `@weft/compose/store`. ADR 036.
 *
 * @packageDocumentation
 */

export {
  type CheckpointLink,
  type CheckpointStats,
  type CompactOptions,
  type CompactReport,
  checkpointStats,
  checkRetentionPolicy,
  compactThread,
  type DeleteOutcome,
  type DeleteSkipped,
  exportThread,
  type GraphStats,
  importThread,
  isMaintainable,
  type ListThreadsOptions,
  type MaintainableCheckpointer,
  type PruneOptions,
  type PruneReport,
  type PruneSkip,
  pruneCheckpoints,
  type Rebase,
  type RebaseOutcome,
  type ReplayDifference,
  type ReplayNode,
  type ReplayOptions,
  type ReplayReport,
  type ReplayStep,
  type ReplayStepReport,
  type Retention,
  type RetentionOptions,
  type RetentionPolicies,
  type RetentionPolicy,
  type RetentionReport,
  replayThread,
  startRetention,
  type ThreadExport,
  type ThreadSummary,
  type VerifyIssue,
  type VerifyOptions,
  type VerifyReport,
  verifyCheckpoints,
} from '../checkpoint/maintenance/index.js';
