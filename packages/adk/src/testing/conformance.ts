/**
 * `@weft/adk/testing/conformance` — for store authors: the session, memory and artifact service
 * conformance suites every implementation runs in its own tests, and the Runner's store and memory wiring
 * suite every `Store` runs. They declare vitest tests (`describe`,
 * `it`), so they have their own entry and `@weft/adk/testing` stays vitest-free; the run-time helpers a
 * store implementation uses are on `@weft/adk/session-store` (docs/adr/024-entry-points-by-audience.md).
 *
 * @packageDocumentation
 */

export {
  type ArtifactProcessesOptions,
  describeArtifactSavesAcrossProcesses,
} from './artifact-saves-across-processes.js';
export {
  type ArtifactServiceFixture,
  describeArtifactServiceConformance,
} from './artifact-service-conformance.js';
export {
  describeMemoryServiceConformance,
  type MemoryStoreFixture,
} from './memory-service-conformance.js';
export { describeRunnerServicesConformance } from './runner-services-conformance.js';
export {
  describeSessionServiceConformance,
  type SessionServiceFixture,
} from './session-service-conformance.js';
