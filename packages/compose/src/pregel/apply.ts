import type { ZodError } from 'zod';
import { StateUpdateError } from '../errors/state-update-error.js';
import { WeftError } from '../errors/weft-error.js';
import { WriteConflictError } from '../errors/write-conflict-error.js';
import { isPlainObject } from '../runnable/concat.js';
import { reduceKey } from '../state/reduce-key.js';
import { appendReducer, isReadyReducer } from '../state/reducers.js';
import { isCommand } from '../vocabulary/command.js';
import type { Send } from '../vocabulary/send.js';
import type { CompiledState } from './compiled-state.js';
import { SubgraphWrites } from './subgraph-writes.js';
import { TaskPaused } from './task.js';

/** Extra targets a task asked for with `Command({ goto })`. */
export type Goto = ReadonlyArray<string | Send>;

/**
 * The node that wrote each output, by task position: a list, or a lookup (a map step's loop passes one,
 * so it allocates no N-slot list of names per step).
 */
export type NodeNames = readonly string[] | ((task: number) => string);

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
 * each key's reducer. Pure: returns new values (the same object when no task wrote a key) and leaves its inputs
 * untouched. Paused tasks write nothing.
 *
 * @throws WriteConflictError when two tasks wrote one last-value key.
 * @throws WeftError `INVALID_UPDATE` when a node wrote a key the schema does not have, or not an object.
 * @throws ReducerError when a key's reducer throws (naming the node and the key).
 * @throws StateUpdateError when a write fails the state schema (naming the node and the key).
 */
export function applyStateWrites(
  state: CompiledState,
  values: Record<string, unknown>,
  nodeNames: NodeNames,
  outputs: readonly unknown[],
): AppliedStep {
  const step: StepApply = {
    state,
    nodeNames,
    next: undefined,
    changed: [],
    writer: outputs.length > 1 ? new Map() : undefined,
    appends: undefined,
    base: values,
  };
  // Both made on first need: a fan-out of N Sends would otherwise allocate two N-slot arrays per step
  // (over 16k slots V8 puts an array in large-object space, fresh pages each time), and for plain-object
  // outputs `updates` is `outputs` itself.
  let gotos: Array<Goto | undefined> | undefined;
  let updates: unknown[] | undefined;
  for (let i = 0; i < outputs.length; i++) {
    let output = outputs[i];
    let update: unknown;
    if (output instanceof TaskPaused) output = undefined;
    else {
      if (isCommand(output)) {
        if (output.goto.length > 0) (gotos ??= new Array(outputs.length))[i] = output.goto;
        output = output.update;
      }
      update = applyOutput(step, i, output);
    }
    if (updates) updates.push(update);
    else if (update !== outputs[i]) (updates = outputs.slice(0, i)).push(update);
  }
  // Spread, not concat: concat takes V8's slow path on a frozen array (state is frozen in development).
  if (step.appends)
    for (const [key, items] of step.appends)
      (step.next as Record<string, unknown>)[key] = [
        ...((values[key] as unknown[] | undefined) ?? []),
        ...items,
      ];
  if (state.rules && step.next) checkRules(step, outputs);
  return {
    values: step.next ?? values,
    changed: step.changed,
    gotos: gotos ?? noGotos,
    updates: updates ?? outputs,
  };
}

/** The gotos of a step in which no task returned a `Command` with one (shared: never written). */
const noGotos: ReadonlyArray<Goto | undefined> = [];

/** Writes one task's output (after a `Command`'s unwrapping) and returns the update it stands for. */
function applyOutput(step: StepApply, i: number, output: unknown): unknown {
  const { state } = step;
  if (output === undefined || output === null) return output;
  if (output instanceof SubgraphWrites) {
    for (const [key, value] of output.writes)
      if (output.checked || state.keySet.has(key)) write(step, i, key, value);
    return Object.fromEntries(output.writes);
  }
  if (isPlainObject(output)) {
    for (const key in output) write(step, i, key, output[key]);
    return output;
  }
  throw new WeftError(
    'INVALID_UPDATE',
    `node "${nameOf(step, i)}" returned ${describe(output)}; a state graph node returns a partial state object, a Command, or nothing`,
  );
}

/** The working state of one `applyStateWrites` call. */
interface StepApply {
  readonly state: CompiledState;
  readonly nodeNames: NodeNames;
  next: Record<string, unknown> | undefined;
  readonly changed: string[];
  readonly writer: Map<string, number> | undefined;
  /** Items appended per key this step (`appendReducer` keys are concatenated once, not per write). */
  appends: Map<string, unknown[]> | undefined;
  readonly base: Record<string, unknown>;
}

/** The name of the node whose task wrote at position `task`. */
function nameOf(step: StepApply, task: number): string {
  const names = step.nodeNames;
  return typeof names === 'function' ? names(task) : (names[task] as string);
}

function write(step: StepApply, task: number, key: string, value: unknown): void {
  const { state } = step;
  if (!state.keySet.has(key)) {
    throw new WeftError(
      'INVALID_UPDATE',
      `node "${nameOf(step, task)}" wrote "${key}", which is not a key of the state schema (keys: ${state.keys.join(', ')})`,
    );
  }
  const check = state.checks?.[key];
  if (check) {
    const error = check(value);
    if (error) throw new StateUpdateError({ node: nameOf(step, task), key, error });
  }
  const reducer = state.reducers[key];
  // An update is a partial: `undefined` for a key the ready reducers combine adds nothing.
  if (value === undefined && reducer !== undefined && isReadyReducer(reducer)) return;
  // The values are copied at the step's first write, so a step whose tasks wrote nothing (`{}`) copies none.
  // `Object.assign` onto a new object, not a spread: in optimized code a spread's copy that then gains a
  // key (an entrypoint's `output`, an optional key) got a new hidden class each run (ADR 025, fifth pass).
  step.next ??= Object.assign({}, step.base);
  const next = step.next;
  if (reducer === appendReducer) {
    const items = (step.appends ??= new Map()).get(key);
    if (items) Array.isArray(value) ? items.push(...value) : items.push(value);
    else step.appends.set(key, Array.isArray(value) ? [...value] : [value]);
  } else if (reducer) next[key] = reduceKey(reducer, next[key], value, { node: nameOf(step, task), key });
  else {
    if (step.writer) {
      const first = step.writer.get(key);
      if (first !== undefined && first !== task) {
        throw new WriteConflictError(
          key,
          [nameOf(step, first), nameOf(step, task)],
          'give the key a reducer or let one node write it',
        );
      }
      step.writer.set(key, task);
    }
    next[key] = value;
  }
  if (!step.changed.includes(key)) step.changed.push(key);
}

/**
 * Checks the rules the schema states on the whole object against the state the step's writes made. A
 * failure names the key its issue points at (else the first key the step changed) and the last task that
 * wrote that key.
 *
 * @throws StateUpdateError when a rule fails.
 */
function checkRules(step: StepApply, outputs: readonly unknown[]): void {
  const error = (step.state.rules as NonNullable<CompiledState['rules']>)(step.next);
  if (!error) return;
  const pointed = error.issues[0]?.path[0];
  const key =
    typeof pointed === 'string' && step.state.keySet.has(pointed) ? pointed : (step.changed[0] as string);
  const within = error.issues.map((issue) => ({
    ...issue,
    path: issue.path[0] === key ? issue.path.slice(1) : issue.path,
  }));
  let task = outputs.length - 1;
  while (task > 0 && !wrote(outputs[task], key)) task--;
  throw new StateUpdateError({
    node: nameOf(step, task),
    key,
    error: { ...error, issues: within } as ZodError,
  });
}

/** Whether a task's output wrote `key`. */
function wrote(output: unknown, key: string): boolean {
  const update = isCommand(output) ? output.update : output;
  if (update instanceof SubgraphWrites) return update.writes.some(([written]) => written === key);
  return isPlainObject(update) && key in update;
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object')
    return `an instance of ${(value as object).constructor?.name ?? 'an unknown class'}`;
  return `a ${typeof value}`;
}
