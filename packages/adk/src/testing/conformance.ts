// `@weft/adk/testing/conformance`: the session-service conformance suite for store authors. It runs
// inside vitest (it declares tests), so it has its own entry: `@weft/adk/testing` stays vitest-free.

export {
  type ArtifactServiceFixture,
  describeArtifactServiceConformance,
} from './artifact-service-conformance.js';
export {
  describeMemoryServiceConformance,
  type MemoryStoreFixture,
} from './memory-service-conformance.js';
export {
  describeSessionServiceConformance,
  type SessionServiceFixture,
} from './session-service-conformance.js';
