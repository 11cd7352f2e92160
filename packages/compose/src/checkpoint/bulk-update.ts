import { WeftError } from '../errors/weft-error.js';
import type { RunContext } from '../pregel/run-context.js';
import type { CompiledNode, Topology } from '../pregel/topology.js';
import type { Command } from '../vocabulary/command.js';
import { END, START } from '../vocabulary/constants.js';
import type { Checkpointer } from './checkpointer.js';
import { asNodeOf, checkValues, type EarlierUpdate, writeClaimed } from './thread-write.js';

/**
 * One update of a {@link BulkSuperstep}: values written as `asNode` (as `updateState` takes them; a
 * `Command` with `goto`s and `Send`s when written as a node, as the node could have returned it).
 */
export interface BulkUpdate<TUpdate = unknown, TNodes extends string = string> {
  readonly values: TUpdate | Command<TUpdate, string> | null;
  /** The node the values are written as; required when a superstep holds several updates. */
  readonly asNode?: TNodes;
}

/** One superstep of `bulkUpdateState`: its updates are applied together, as one checkpoint. */
export interface BulkSuperstep<TUpdate = unknown, TNodes extends string = string> {
  readonly updates: ReadonlyArray<BulkUpdate<TUpdate, TNodes>>;
}

/** Where `bulkUpdateState` starts and what it writes. */
export interface BulkWrite {
  readonly checkpointer: Checkpointer;
  readonly topology: Topology;
  readonly run: RunContext;
  readonly threadId: string;
  readonly supersteps: readonly BulkSuperstep[];
  /** Start from this checkpoint instead of the latest (a fork). */
  readonly checkpointId?: string | undefined;
}

/**
 * Applies several supersteps of updates under one claim of the thread: each superstep becomes one
 * checkpoint on top of the previous one; within a superstep the updates apply in order, as writes of
 * their nodes, and the next tasks are routed from all of them. Everything is checked before anything is
 * written, so a bad update writes nothing.
 *
 * @throws WeftError `INVALID_ARGUMENT` for no supersteps, an empty superstep, a superstep of several
 *   updates where one lacks `asNode` or is `END`, or an unknown `asNode`.
 * @throws InputValidationError when values fail the state's update schema.
 */
export async function bulkWriteState(write: BulkWrite): Promise<string> {
  const { checkpointer, topology, run, threadId } = write;
  const planned = await planSupersteps(topology, write.supersteps);
  const claim = await checkpointer.claimThread(threadId);
  try {
    let checkpointId = write.checkpointId;
    for (const step of planned) {
      checkpointId = await writeClaimed({ checkpointer, topology, run, threadId }, step.last.values, {
        ...(checkpointId === undefined ? {} : { checkpointId }),
        ...(step.last.asNode === undefined ? {} : { asNode: step.last.asNode }),
        before: step.before,
      });
    }
    return checkpointId as string;
  } finally {
    await claim.release();
  }
}

interface PlannedSuperstep {
  readonly before: readonly EarlierUpdate[];
  readonly last: BulkUpdate;
}

async function planSupersteps(
  topology: Topology,
  supersteps: readonly BulkSuperstep[],
): Promise<PlannedSuperstep[]> {
  if (supersteps.length === 0)
    throw new WeftError('INVALID_ARGUMENT', 'bulkUpdateState needs at least one superstep of updates');
  const planned: PlannedSuperstep[] = [];
  for (const [index, superstep] of supersteps.entries()) {
    const { updates } = superstep;
    const last = updates[updates.length - 1];
    if (!last) throw new WeftError('INVALID_ARGUMENT', `bulkUpdateState: superstep ${index} has no updates`);
    if (updates.length > 1) {
      for (const update of updates) {
        if (update.asNode === undefined || update.asNode === END || update.asNode === START) {
          throw new WeftError(
            'INVALID_ARGUMENT',
            `bulkUpdateState: superstep ${index} has several updates, so each needs an asNode that is a node (not START or END)`,
          );
        }
      }
    }
    const before: EarlierUpdate[] = [];
    for (const update of updates.slice(0, -1)) {
      const node = asNodeOf(topology, update.asNode) as CompiledNode;
      before.push({ node, name: node.name, output: await checkValues(topology, update.values, node) });
    }
    await checkValues(topology, last.values, asNodeOf(topology, last.asNode));
    planned.push({ before, last });
  }
  return planned;
}
