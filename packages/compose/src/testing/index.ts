export type { CheckpointerFixture } from './checkpointer-conformance.js';
export { describeCheckpointerConformance } from './checkpointer-conformance.js';
export { type DurabilityMatrixOptions, describeDurabilityMatrix } from './durability-matrix.js';
export { describeStoreConformance, type StoreFixture } from './store-conformance.js';
