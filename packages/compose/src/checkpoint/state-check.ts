/**
 * Checks state loaded from a checkpoint against the graph's state schema, key by key, so a value that
 * changed type at rest (a number stored as a string, a list item of the wrong shape) is a
 * {@link CheckpointCorruptError} naming the checkpoint and the key instead of state a node would trip on.
 *
 * The check validates, it does not parse: values are used as stored. Keys whose schema transforms
 * (`.transform`, `z.preprocess`, a `z.pipe` into another type) are skipped, since the stored value is the
 * transform's output and need not match its input; so are keys without a value yet.
 */
import type { ZodType } from 'zod';
import { CheckpointCorruptError } from '../errors/checkpoint-corrupt-error.js';
import type { Topology } from '../pregel/topology.js';
import { hasTransform } from '../state/has-transform.js';
import { builtUpdateSchema } from '../state/update-schema.js';
import type { CheckpointRecord } from './checkpointer.js';

/**
 * Validates the given keys of loaded values (all state keys when `keys` is omitted).
 *
 * @throws {CheckpointCorruptError} kind `schema`, naming the checkpoint and the first key that fails.
 */
export function checkLoadedState(
  topology: Topology,
  values: Readonly<Record<string, unknown>>,
  record: Pick<CheckpointRecord, 'threadId' | 'ns' | 'id'>,
  keys?: Iterable<string>,
): void {
  const state = topology.state;
  if (state === undefined) return;
  for (const key of keys ?? state.keys) {
    const issue = mismatch(topology, key, values[key], false);
    if (issue === undefined) continue;
    throw new CheckpointCorruptError({
      record: { threadId: record.threadId, ns: record.ns, checkpointId: record.id },
      kind: 'schema',
      key,
      reason: `the stored value does not match the state schema${issue}`,
    });
  }
}

/**
 * The first stored entry whose value the state schema rejects: a value for a key without a reducer, or an
 * update for one with a reducer (when compose has built the update schema). Used to name the key of a
 * payload that failed its checksum.
 */
export function suspectKey(
  topology: Topology,
  entries: Iterable<readonly [key: string, value: unknown]>,
): string | undefined {
  if (topology.state === undefined) return undefined;
  for (const [key, value] of entries) if (mismatch(topology, key, value, true) !== undefined) return key;
  return undefined;
}

/** Why the schema rejects a key's value (`': ...'`), or `undefined` when it accepts it or cannot tell. */
function mismatch(topology: Topology, key: string, value: unknown, update: boolean): string | undefined {
  const spec = topology.spec.state;
  if (value === undefined || spec === undefined) return undefined;
  const field =
    update && spec.reducers[key] !== undefined
      ? (builtUpdateSchema(spec)?.shape[key] as ZodType | undefined)
      : (spec.schema.shape[key] as ZodType | undefined);
  if (field === undefined || hasTransform(field)) return undefined;
  const result = field.safeParse(value);
  if (result.success) return undefined;
  const issue = result.error.issues[0];
  const path = issue && issue.path.length > 0 ? ` at ${issue.path.map(String).join('.')}` : '';
  return `${path}: ${issue?.message ?? 'invalid'}`;
}
