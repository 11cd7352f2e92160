import { WeftError } from './weft-error.js';

/**
 * Creates the one abort error of Weft, which a cancelled run (and any cancelled model or tool call of
 * `@weft/adk`) rejects with: a {@link WeftError} with code `ABORTED` and name `AbortError`, whose
 * `cause` is the signal's reason; `what` names what was aborted (default `the run`).
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * const run = app.invoke(input, { signal: controller.signal });
 * controller.abort();
 * await run.catch((error) => error.code); // 'ABORTED'
 * ```
 */
export function abortError(reason?: unknown, what = 'the run'): WeftError<'ABORTED'> {
  const detail =
    reason instanceof Error ? `: ${reason.message}` : typeof reason === 'string' ? `: ${reason}` : '';
  const error = new WeftError<'ABORTED'>('ABORTED', `${what} was aborted${detail}`, { cause: reason });
  error.name = 'AbortError';
  return error;
}
