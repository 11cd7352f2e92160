import { AsyncLocalStorage } from 'node:async_hooks';
import { WeftError } from '../errors/weft-error.js';
import type { NodeContext } from '../pregel/node-context.js';
import type { RunContext } from '../pregel/run-context.js';
import type { TaskContext } from '../pregel/task-context.js';

/** One run of an entrypoint's body (one attempt of its node's task). */
export interface EntryRun {
  /** The entrypoint node's task context: its memo keeps call results, its pause carries them. */
  readonly ctx: TaskContext;
  readonly run: RunContext;
  /** The entrypoint's name (its node's). */
  readonly name: string;
  /** What the thread's last finished turn saved. */
  readonly previous: unknown;
  /** Results of this task's calls that finished in an earlier attempt of it (in this process). */
  readonly results: Map<string, unknown>;
  /** Calls still running (awaited before the entry task pauses). */
  readonly running: Set<Promise<unknown>>;
  /** Pauses raised by calls in this attempt (the entry task pauses with all of them). */
  readonly pauses: unknown[];
}

/**
 * Where code runs inside an entrypoint: its body, or one task call (tasks may call tasks). Carried by
 * `AsyncLocalStorage`, so a task function called anywhere below the body finds its entrypoint.
 */
export interface CallScope {
  readonly entry: EntryRun;
  /** The call's key within the entry task (`3`, `3.0` for a call made inside call 3); the body has none. */
  readonly key: string | undefined;
  /** What `getContext()` returns here: the entrypoint's context, or the task call's. */
  readonly context: NodeContext;
  /** Calls made from this scope so far (numbers the next call's key). */
  calls: number;
  /** `interrupt()` calls made in this task call so far (positions of its pauses). */
  interrupts: number;
}

const storage = new AsyncLocalStorage<CallScope>();

/** Runs `fn` with `scope` as the current call scope. */
export function inScope<T>(scope: CallScope, fn: () => T): T {
  return storage.run(scope, fn);
}

/**
 * The current call scope.
 *
 * @throws WeftError `OUTSIDE_ENTRYPOINT` naming `what` when no entrypoint is running here.
 */
export function currentScope(what: string): CallScope {
  const scope = storage.getStore();
  if (!scope) {
    throw new WeftError(
      'OUTSIDE_ENTRYPOINT',
      `${what} was called outside an entrypoint; call it from the body of an entrypoint(...) (or from a task it calls), which checkpoints its result`,
    );
  }
  return scope;
}

/** Results of earlier attempts, per run and entry task: a retried entrypoint skips calls that finished. */
const earlier = new WeakMap<RunContext, Map<string, Map<string, unknown>>>();

/** The call results kept for the task `taskId` of `run` across its attempts. */
export function resultsOf(run: RunContext, taskId: string): Map<string, unknown> {
  let byTask = earlier.get(run);
  if (!byTask) earlier.set(run, (byTask = new Map()));
  let results = byTask.get(taskId);
  if (!results) byTask.set(taskId, (results = new Map()));
  return results;
}
