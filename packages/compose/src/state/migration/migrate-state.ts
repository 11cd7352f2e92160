import type { CheckpointRecord } from '../../checkpoint/checkpointer.js';
import { StateVersionError } from '../../errors/state-version-error.js';
import type { Topology } from '../../pregel/topology.js';
import { FIRST_STATE_VERSION } from './state-migration.js';

/**
 * The state version a checkpoint was written at: its metadata's `stateVersion`, or 1 for a checkpoint
 * written before versions were recorded.
 *
 * @example
 * ```ts
 * declare const record: CheckpointRecord;
 * storedStateVersion(record); // 2 when a graph compiled with stateVersion: 2 wrote it
 * ```
 */
export function storedStateVersion(record: Pick<CheckpointRecord, 'metadata'>): number {
  const version = record.metadata.stateVersion;
  return typeof version === 'number' && Number.isInteger(version) && version >= 1
    ? version
    : FIRST_STATE_VERSION;
}

/**
 * Refuses a checkpoint written by a newer state version than the graph's.
 *
 * @throws {StateVersionError} (`reason: 'newer'`) naming the thread, checkpoint, graph and both versions.
 */
export function checkStateVersion(
  topology: Pick<Topology, 'name' | 'versioning'>,
  record: CheckpointRecord,
): number {
  const stored = storedStateVersion(record);
  const graphVersion = topology.versioning.version;
  if (stored > graphVersion) throw versionError({ topology, record, storedVersion: stored, reason: 'newer' });
  return stored;
}

/**
 * The values of a checkpoint written at an older state version, moved through the graph's migrations to
 * its current version (the values themselves when the versions match).
 *
 * @throws {StateVersionError} when the checkpoint is newer than the graph, a migration is missing, or
 * one throws (its error as `cause`).
 */
export async function migrateValues(
  topology: Pick<Topology, 'name' | 'versioning'>,
  record: CheckpointRecord,
  values: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  let version = checkStateVersion(topology, record);
  let state = values;
  while (version < topology.versioning.version) {
    const migration = topology.versioning.migrations.get(version);
    if (migration === undefined)
      throw versionError({ topology, record, storedVersion: version, reason: 'no-migration' });
    try {
      state = { ...(await migration(state)) };
    } catch (error) {
      throw versionError({
        topology,
        record,
        storedVersion: version,
        reason: 'migration-failed',
        cause: error,
      });
    }
    version++;
  }
  return state;
}

function versionError(options: {
  readonly topology: Pick<Topology, 'name' | 'versioning'>;
  readonly record: CheckpointRecord;
  readonly storedVersion: number;
  readonly reason: StateVersionError['reason'];
  readonly cause?: unknown;
}): StateVersionError {
  const { topology, record } = options;
  return new StateVersionError({
    threadId: record.threadId,
    checkpointId: record.id,
    graph: topology.name,
    storedVersion: options.storedVersion,
    graphVersion: topology.versioning.version,
    reason: options.reason,
    ...(options.cause === undefined ? {} : { cause: options.cause }),
  });
}
