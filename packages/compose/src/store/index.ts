/**
 * `@weft/compose/store` — for authors of storage: a `Checkpointer`, a `NodeCache` or a long-term document
 * `Store` on a database (as `@weft/store-sqlite` and `@weft/store-postgres` are), and for code that
 * moves Weft values across a process boundary (the tagged-JSON codec).
 *
 * It holds the records a store keeps and their row mapping for SQL stores, the errors every store reports
 * alike (a duplicate checkpoint id, a taken `seq`, a claimed thread, corrupt metadata), the metadata
 * filter, the payload checksum, and the document store's argument checks, namespace ranges, embedding and
 * ranking — so every store behaves the same. The interfaces a user passes (`Checkpointer`, `NodeCache`,
 * `Store`) are in the main entry too; the conformance suites a store must pass are test code and live in
 * `@weft/compose/testing`. Graph builders and runners need nothing from here.
 *
 * @packageDocumentation
 */

export type { NodeCache } from '../cache/node-cache.js';
export type { CheckpointBody, StoredTask, TaskWrite } from '../checkpoint/checkpoint-body.js';
export {
  claimLostError,
  parseCheckpointMetadata,
  seqConflictError,
  seqTakenError,
  threadClaimedError,
} from '../checkpoint/checkpoint-conflicts.js';
export { checkpointExistsError } from '../checkpoint/checkpoint-exists-error.js';
export {
  CHECKPOINT_COLUMNS,
  type CheckpointRow,
  checkpointFromRow,
  checkpointRowValues,
  TASK_WRITES_COLUMNS,
  type TaskWritesRow,
  taskWritesFromRow,
  taskWritesRowValues,
} from '../checkpoint/checkpoint-rows.js';
export type {
  Checkpointer,
  CheckpointRecord,
  CheckpointSource,
  GetCheckpointOptions,
  JsonValue,
  ListCheckpointsOptions,
  StoredCheckpoint,
  TaskWritesRecord,
  ThreadClaim,
} from '../checkpoint/checkpointer.js';
export {
  type CheckpointLink,
  type DeleteOutcome,
  type DeleteSkipped,
  isMaintainable,
  type ListThreadsOptions,
  type MaintainableCheckpointer,
  maintainable,
  PAUSED_WRITE_PREFIX,
  planRetention,
  type Rebase,
  type RebaseOutcome,
  type ThreadSummary,
} from '../checkpoint/maintenance/index.js';
export { jsonEqual, metadataMatches } from '../checkpoint/metadata-filter.js';
export { payloadChecksum } from '../checkpoint/payload-checksum.js';
export { deserialize, serialize, serializeChannels } from '../checkpoint/serializer.js';
export type { EffectFencing, EffectRecorder, EffectWhere } from '../effects/effect-recorder.js';
export { cosineSimilarity, type Embeddings, type EmbedOptions } from './embeddings.js';
export type {
  Store,
  StoreFilter,
  StoreIndexConfig,
  StoreItem,
  StoreListOptions,
  StorePutOptions,
  StoreSearchItem,
  StoreSearchOptions,
  StoreValue,
} from './store.js';
export { StoreConflictError } from './store-conflict-error.js';
export { checkFilter, matchesFilter, valueAtPath } from './store-filter.js';
export {
  checkNamespace,
  checkPut,
  joinNamespace,
  namespaceRange,
  namespaceStartsWith,
  splitNamespace,
} from './store-namespace.js';
export {
  type StorePutRequest,
  type StoreRow,
  type StoreRowWrite,
  storeItemFromRow,
  storeRowForPut,
  vectorsFromBytes,
} from './store-rows.js';
export {
  embedDocument,
  pageNamespaces,
  prepareSearch,
  rankItems,
  type StoreCandidate,
  textsAtPaths,
} from './store-search.js';
export { checkStoreValue, storedValue } from './store-value.js';
export { StoreValueError } from './store-value-error.js';
