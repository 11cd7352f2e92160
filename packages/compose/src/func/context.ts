import type { NodeContext } from '../pregel/node-context.js';
import { currentScope } from './call-scope.js';

/**
 * The context of the code running now inside an entrypoint: the body's `ctx`, or, inside a task call,
 * the call's (its node is the task, its `interrupt()` pauses that call). For task functions, which get
 * only their arguments.
 *
 * @throws WeftError `OUTSIDE_ENTRYPOINT` when called outside an entrypoint.
 *
 * @example
 * ```ts
 * const crawl = task('crawl', async (url: string) => {
 *   getContext().emit({ crawling: url });
 *   return (await fetch(url, { signal: getContext().signal })).text();
 * });
 * ```
 */
export function getContext(): NodeContext {
  return currentScope('getContext()').context;
}

/**
 * Pauses the run and asks for a value, from an entrypoint's body or from a task: the run returns with
 * the interrupt pending; resuming with `Command({ resume })` runs the body again — calls that finished
 * return their stored results — and this `interrupt()` returns the resume value. Inside a task it pauses
 * that call only: its siblings finish and keep their results. Same as `getContext().interrupt(value)`.
 *
 * @throws WeftError `OUTSIDE_ENTRYPOINT` outside an entrypoint; `INTERRUPTED` when the entrypoint has
 *   no checkpointer (the pause could never be resumed).
 *
 * @example
 * ```ts
 * const approve = task('approve', (plan: string) => interrupt<boolean>({ question: 'Run this plan?', plan }));
 * ```
 */
export function interrupt<TResume = unknown>(value: unknown): TResume {
  return currentScope('interrupt()').context.interrupt<TResume>(value);
}

/**
 * What the thread's last finished turn saved (as `ctx.previous` in the body), from anywhere inside an
 * entrypoint — the reference engine's `getPreviousState`.
 *
 * @throws WeftError `OUTSIDE_ENTRYPOINT` when called outside an entrypoint.
 *
 * @example
 * ```ts
 * const remember = task('remember', (note: string) => [...(getPreviousState<string[]>() ?? []), note]);
 * ```
 */
export function getPreviousState<TState>(): TState | undefined {
  return currentScope('getPreviousState()').entry.previous as TState | undefined;
}
