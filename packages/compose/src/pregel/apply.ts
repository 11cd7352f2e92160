import { WeftError } from '../errors/weft-error.js';
import { WriteConflictError } from '../errors/write-conflict-error.js';
import { isCommand } from '../graph/command.js';
import type { Send } from '../graph/send.js';
import { isPlainObject } from '../runnable/concat.js';
import { SubgraphWrites } from './subgraph-writes.js';
import { TaskPaused } from './task.js';
import type { CompiledState } from './topology.js';

/** Extra targets a task asked for with `Command({ goto })`. */
export type Goto = ReadonlyArray<string | Send>;

/** The result of applying one step's writes to a state graph's values. */
export interface AppliedStep {
  readonly values: Record<string, unknown>;
  /** Keys whose value changed (in first-write order). */
  readonly changed: readonly string[];
  /** Per task, `Command` gotos (or undefined). */
  readonly gotos: ReadonlyArray<Goto | undefined>;
  /** Per task, the update it wrote (for `updates` streaming and checkpoints). */
  readonly updates: readonly unknown[];
}

/**
 * Applies the writes of one superstep to state-graph values, in task order (never finish order), through
 * each key's reducer. Pure: returns new values and leaves its inputs untouched. Paused tasks write nothing.
 *
 * @throws WriteConflictError when two tasks wrote one last-value key.
 * @throws WeftError `INVALID_UPDATE` when a node wrote a key the schema does not have, or not an object.
 */
export function applyStateWrites(
  state: CompiledState,
  values: Record<string, unknown>,
  nodeNames: readonly string[],
  outputs: readonly unknown[],
): AppliedStep {
  let next: Record<string, unknown> | undefined;
  const changed: string[] = [];
  const gotos: Array<Goto | undefined> = new Array(outputs.length);
  const updates: unknown[] = new Array(outputs.length);
  const writer: Map<string, number> | undefined = outputs.length > 1 ? new Map() : undefined;
  for (let i = 0; i < outputs.length; i++) {
    let output = outputs[i];
    if (output instanceof TaskPaused) continue;
    if (isCommand(output)) {
      if (output.goto.length > 0) gotos[i] = output.goto;
      output = output.update;
    }
    updates[i] = output instanceof SubgraphWrites ? Object.fromEntries(output.writes) : output;
    if (output === undefined || output === null) continue;
    const node = nodeNames[i] as string;
    const entries = entriesOf(node, output);
    next ??= { ...values };
    for (let e = 0; e < entries.length; e++) {
      const [key, value] = entries[e] as readonly [string, unknown];
      if (!state.keySet.has(key)) {
        if (output instanceof SubgraphWrites) continue;
        throw new WeftError(
          'INVALID_UPDATE',
          `node "${node}" wrote "${key}", which is not a key of the state schema (keys: ${state.keys.join(', ')})`,
        );
      }
      const reducer = state.reducers[key];
      if (reducer) next[key] = reducer(next[key], value);
      else {
        if (writer) {
          const first = writer.get(key);
          if (first !== undefined && first !== i) {
            throw new WriteConflictError(
              key,
              [nodeNames[first] as string, node],
              'give the key a reducer or let one node write it',
            );
          }
          writer.set(key, i);
        }
        next[key] = value;
      }
      if (!changed.includes(key)) changed.push(key);
    }
  }
  return { values: next ?? values, changed, gotos, updates };
}

function entriesOf(node: string, output: unknown): ReadonlyArray<readonly [string, unknown]> {
  if (output instanceof SubgraphWrites) return output.writes;
  if (isPlainObject(output)) return Object.entries(output);
  throw new WeftError(
    'INVALID_UPDATE',
    `node "${node}" returned ${describe(output)}; a state graph node returns a partial state object, a Command, or nothing`,
  );
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object')
    return `an instance of ${(value as object).constructor?.name ?? 'an unknown class'}`;
  return `a ${typeof value}`;
}
