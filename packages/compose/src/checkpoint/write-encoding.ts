import { SubgraphWrites } from '../pregel/subgraph-writes.js';
import { Command, isCommand } from '../vocabulary/command.js';
import { START } from '../vocabulary/constants.js';
import { isSend, Send } from '../vocabulary/send.js';
import type { TaskWrite } from './checkpoint-body.js';
import { SerializationError } from './serialization-error.js';
import { serialize, serializeChannels } from './serializer.js';

/** One step's writes as stored: per node, its `[channel, value]` entries. */
export type StepWrites = ReadonlyArray<
  readonly [node: string, entries: ReadonlyArray<readonly [string, unknown]>]
>;

/** The `[channel, value]` entries of a node's write (a dataflow value is one `__output__` entry). */
export function entriesOf(update: unknown): ReadonlyArray<readonly [string, unknown]> {
  if (update instanceof SubgraphWrites) return update.writes;
  if (typeof update === 'object' && update !== null) return Object.entries(update);
  return [['__output__', update]];
}

/**
 * A task output in storable form: the engine's own classes (a subgraph's writes, a `Command` and the
 * `Send`s in its `goto`) become tagged plain objects; {@link restoreOutput} turns them back.
 */
export function normalizeOutput(output: unknown): unknown {
  if (output instanceof SubgraphWrites)
    return output.checked
      ? { __subgraphWrites__: output.writes, checked: true }
      : { __subgraphWrites__: output.writes };
  if (isCommand(output)) {
    const goto = output.goto.map((target) =>
      isSend(target) ? { __send__: [target.node, target.input] } : target,
    );
    // A node's list of updates and Commands is one Command over the list's writes (see `listOutput`).
    const update = output.update instanceof SubgraphWrites ? normalizeOutput(output.update) : output.update;
    return { __command__: { update, goto } };
  }
  return output;
}

/** Restores an output saved by {@link normalizeOutput}. */
export function restoreOutput(output: unknown): unknown {
  if (typeof output !== 'object' || output === null) return output;
  if ('__subgraphWrites__' in output) {
    const stored = output as { __subgraphWrites__: Array<[string, unknown]>; checked?: boolean };
    return new SubgraphWrites(stored.__subgraphWrites__, stored.checked === true);
  }
  if ('__command__' in output) {
    const { update, goto } = (output as { __command__: { update: unknown; goto: unknown[] } }).__command__;
    const targets = goto.map((target) => {
      if (typeof target === 'string') return target;
      const [node, input] = (target as { __send__: [string, unknown] }).__send__;
      return new Send(node, input);
    });
    const restored =
      typeof update === 'object' && update !== null && '__subgraphWrites__' in update
        ? restoreOutput(update)
        : update;
    return new Command({ update: restored, goto: targets });
  }
  return output;
}

/**
 * Serializes one step's writes.
 *
 * @throws SerializationError naming the node and the channel whose value cannot be stored.
 */
export function serializeWrites(writes: StepWrites): string {
  try {
    return serialize(writes);
  } catch (error) {
    for (const [node, entries] of writes) explainEntries(node, entries);
    throw error;
  }
}

/**
 * Serializes the write of one task (its output, or its pause).
 *
 * @throws SerializationError naming the node and, for a state update, the channel.
 */
export function serializeTaskWrite(write: TaskWrite): string {
  try {
    return serialize(write);
  } catch (error) {
    if (write.kind === 'output') {
      const output = write.output as { __command__?: { update: unknown } } | null | undefined;
      const update = typeof output === 'object' && output?.__command__ ? output.__command__.update : output;
      if (typeof update === 'object' && update !== null) explainEntries(write.node, entriesOf(update));
    } else if (write.kind === 'paused' && write.memo) explainMemo(write.node, write.memo);
    else if (write.kind === 'call' && error instanceof SerializationError) {
      throw new SerializationError(
        `a task called by node "${write.node}" returned a value that cannot be checkpointed: ${error.message}`,
        error.path,
        { cause: error },
      );
    }
    throw error;
  }
}

/** Throws a serialization error naming `node` and the first channel of `entries` that cannot be stored. */
function explainEntries(node: string, entries: ReadonlyArray<readonly [string, unknown]>): void {
  for (const [key, value] of entries) {
    try {
      serializeChannels({ [key]: value });
    } catch (error) {
      if (!(error instanceof SerializationError)) throw error;
      const who = node === START ? 'the run input' : `node "${node}"`;
      throw new SerializationError(
        `${who} wrote a value that cannot be checkpointed: ${error.message}`,
        error.path,
        { cause: error },
      );
    }
  }
}

/** Throws a serialization error naming `node` and the first `ctx.once` key whose result cannot be stored. */
function explainMemo(node: string, memo: ReadonlyArray<readonly [string, unknown]>): void {
  for (const [key, value] of memo) {
    try {
      serialize(value);
    } catch (error) {
      if (!(error instanceof SerializationError)) throw error;
      throw new SerializationError(
        `node "${node}" paused, and the result of its ctx.once("${key}") cannot be checkpointed: ${error.message}`,
        error.path,
        { cause: error },
      );
    }
  }
}
