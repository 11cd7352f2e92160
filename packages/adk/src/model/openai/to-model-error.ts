import type { WeftError } from '@weft/compose';
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { AdkError } from '../../errors/adk-error.js';
import { ModelError } from '../../errors/model-error.js';
import { abortError } from '../../internal/abort.js';
import { describeError } from '../../internal/json.js';
import { isRetryableStatus, retryAfterMs } from '../http-failure.js';
import { isRetryableError } from '../is-retryable-error.js';

/**
 * Maps what the `openai` client threw to a Weft error: aborts to the one abort error (`ABORTED`), everything else to a
 * {@link ModelError} with the HTTP status, whether it is retryable, and the server's `retry-after`.
 *
 * @example
 * ```ts
 * try {
 *   return await client.chat.completions.create(body, { signal });
 * } catch (error) {
 *   throw toModelError(error, 'openai:gpt-4o-mini', signal);
 * }
 * ```
 */
export function toModelError(
  error: unknown,
  modelName: string,
  signal: AbortSignal | undefined,
): AdkError | WeftError<'ABORTED'> {
  if (error instanceof APIUserAbortError || signal?.aborted === true) {
    return abortError(signal, `the request to model "${modelName}"`);
  }
  if (AdkError.isInstance(error)) return error;
  const prefix = `model "${modelName}" failed`;
  if (error instanceof APIConnectionTimeoutError) {
    return new ModelError(`${prefix}: the request timed out`, { retryable: true, cause: error });
  }
  if (error instanceof APIConnectionError) {
    return new ModelError(`${prefix}: could not reach the server (${error.message})`, {
      retryable: true,
      cause: error,
    });
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const after = retryAfterMs(error.headers);
    return new ModelError(`${prefix}: ${error.message}`, {
      status: error.status,
      retryable: isRetryableStatus(error.status),
      cause: error,
      ...(after === undefined ? {} : { retryAfterMs: after }),
    });
  }
  return new ModelError(`${prefix}: ${describeError(error)}`, {
    retryable: isRetryableError(error),
    cause: error,
  });
}
