import { WeftError } from '../errors/weft-error.js';
import { resolveRetry } from '../pregel/topology.js';
import type { RetryPolicy } from '../vocabulary/node-options.js';
import { currentScope } from './call-scope.js';
import { runCall, type TaskDefinition } from './run-call.js';

/** Options of {@link task} (a name alone is enough). */
export interface TaskOptions {
  /** The task's name: in events, stream updates, errors and the playground's drawing. */
  readonly name: string;
  /** Tries a failing call again (the call's side effects run again on each attempt). */
  readonly retry?: RetryPolicy;
}

/**
 * A task: call it like the function it wraps, from an entrypoint's body (or from another task), and
 * await the promise. Its result is checkpointed, so a resumed run gets it without calling again.
 */
export interface TaskFunction<TArgs extends readonly unknown[], TResult> {
  (...args: TArgs): Promise<TResult>;
  /** The name given to {@link task}. */
  readonly taskName: string;
}

/** A task of any signature (what `entrypoint({ tasks })` lists). */
export type AnyTaskFunction = { readonly taskName: string };

/**
 * Makes a task of a plain function, for the functional API: called inside an {@link entrypoint}, each
 * call runs once per thread turn — its result is stored as soon as it finishes, and a run resumed after a
 * pause (an `interrupt()`) or a crash gets it back without calling the function again. Calls are
 * identified by their order within the entrypoint (and, for a task calling tasks, within that call), as
 * in the reference engine, so the body must call its tasks in the same order on every run of a turn.
 * Calls may run in parallel (`Promise.all`). Arguments and results must be serializable when the
 * entrypoint checkpoints.
 *
 * @throws WeftError `INVALID_ARGUMENT` for an empty name or a generator function; calling the task
 *   outside an entrypoint rejects with a WeftError `OUTSIDE_ENTRYPOINT` naming it; a call that fails
 *   (after its retries) rejects with a `NodeError` whose path ends with the task's name.
 *
 * @example
 * ```ts
 * const checkpointer = new MemoryCheckpointer();
 * const fetchPage = task('fetchPage', async (url: string) => (await fetch(url)).text());
 * const summarize = task({ name: 'summarize', retry: { maxAttempts: 3 } }, (text: string) => text.slice(0, 80));
 *
 * const digest = entrypoint({ name: 'digest', checkpointer }, async (urls: string[]) => {
 *   const pages = await Promise.all(urls.map((url) => fetchPage(url)));
 *   return Promise.all(pages.map((page) => summarize(page)));
 * });
 * ```
 */
export function task<TArgs extends unknown[], TResult>(
  nameOrOptions: string | TaskOptions,
  fn: (...args: TArgs) => TResult,
): TaskFunction<TArgs, Awaited<TResult>> {
  const options = typeof nameOrOptions === 'string' ? { name: nameOrOptions } : nameOrOptions;
  const { name } = options;
  if (typeof name !== 'string' || name.trim() === '')
    throw new WeftError('INVALID_ARGUMENT', 'task: the name must be a non-empty string');
  if (typeof fn !== 'function')
    throw new WeftError('INVALID_ARGUMENT', `task "${name}": the second argument must be a function`);
  if (isGenerator(fn)) {
    throw new WeftError(
      'INVALID_ARGUMENT',
      `task "${name}": generator functions cannot be tasks; return the value, and send progress with getContext().emit(...)`,
    );
  }
  const definition: TaskDefinition = {
    name,
    fn: fn as (...args: readonly unknown[]) => unknown,
    retry: resolveRetry(options.retry),
  };
  const call = (...args: TArgs): Promise<Awaited<TResult>> => {
    try {
      return runCall(currentScope(`task "${name}"`), definition, args) as Promise<Awaited<TResult>>;
    } catch (error) {
      return Promise.reject(error);
    }
  };
  return Object.defineProperty(call, 'taskName', { value: name, enumerable: true }) as TaskFunction<
    TArgs,
    Awaited<TResult>
  >;
}

/** True for `function*` and `async function*` functions. */
export function isGenerator(fn: unknown): boolean {
  const name = (fn as { constructor?: { name?: string } }).constructor?.name;
  return name === 'GeneratorFunction' || name === 'AsyncGeneratorFunction';
}
