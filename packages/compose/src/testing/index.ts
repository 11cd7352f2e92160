export type { CheckpointerFixture } from './checkpointer-conformance.js';
export { describeCheckpointerConformance } from './checkpointer-conformance.js';
export { runDagCrashChild } from './crash/dag-crash-child.js';
export { type DagCrashResumeOptions, describeDagCrashResume } from './dag-crash-resume.js';
export { type DurabilityMatrixOptions, describeDurabilityMatrix } from './durability-matrix.js';
export { describeEffectKillMatrix, type EffectKillMatrixOptions } from './effect-kill-matrix.js';
export { CountingServer } from './effects/counting-server.js';
export { runEffectKillChild } from './effects/effect-kill-child.js';
export {
  buildEffectKillGraph,
  type EffectKillPoint,
  type EffectKillState,
  effectKillPoints,
  killNow,
} from './effects/effect-kill-graph.js';
export { describeMigrationConformance } from './migration-conformance.js';
export {
  describeMultiProcessRace,
  type MultiProcessRaceOptions,
  type SharedStoreFixture,
} from './multi-process-race.js';
export { describeNodeCacheConformance, type NodeCacheFixture } from './node-cache-conformance.js';
export { runRaceChild } from './race/race-child.js';
export { buildRaceGraph, buildTickGraph } from './race/race-graphs.js';
export { describeRetentionConformance, type RetentionFixture } from './retention-conformance.js';
export { describeStoreConformance, type StoreFixture } from './store-conformance.js';
