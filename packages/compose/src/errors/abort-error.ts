import { WeftError } from './weft-error.js';

/**
 * Creates the error a cancelled run rejects with: a {@link WeftError} with code `ABORTED` and name
 * `AbortError`, whose `cause` is the signal's reason.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * const run = app.invoke(input, { signal: controller.signal });
 * controller.abort();
 * await run.catch((error) => error.code); // 'ABORTED'
 * ```
 */
export function abortError(reason?: unknown): WeftError {
  const detail =
    reason instanceof Error ? `: ${reason.message}` : typeof reason === 'string' ? `: ${reason}` : '';
  const error = new WeftError('ABORTED', `the run was aborted${detail}`, { cause: reason });
  error.name = 'AbortError';
  return error;
}
