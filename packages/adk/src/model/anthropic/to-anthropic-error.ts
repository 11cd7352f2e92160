import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from '@anthropic-ai/sdk';
import type { WeftError } from '@weft/compose';
import { AdkError } from '../../errors/adk-error.js';
import { ModelError } from '../../errors/model-error.js';
import { abortError } from '../../internal/abort.js';
import { describeError } from '../../internal/json.js';
import { isRetryableStatus, retryAfterMs } from '../http-failure.js';
import { isRetryableError } from '../is-retryable-error.js';

/**
 * Maps what the `@anthropic-ai/sdk` client threw to an adk error: aborts to `ABORTED`, everything else
 * to a {@link ModelError} with the HTTP status, whether it is retryable (429, 5xx, 529 overloaded,
 * network failures) and the server's `retry-after`.
 *
 * @example
 * ```ts
 * try {
 *   return await client.messages.create(body, { signal });
 * } catch (error) {
 *   throw toAnthropicError(error, 'anthropic:claude-sonnet-4-5', signal);
 * }
 * ```
 */
export function toAnthropicError(
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
  if (error instanceof APIError) {
    // An error event inside a stream (e.g. overloaded_error) has no status.
    const type = (error.error as { error?: { type?: unknown } } | undefined)?.error?.type;
    const retryable = type === 'overloaded_error' || type === 'api_error' || type === 'rate_limit_error';
    return new ModelError(`${prefix}: ${error.message}`, { retryable, cause: error });
  }
  return new ModelError(`${prefix}: ${describeError(error)}`, {
    retryable: isRetryableError(error),
    cause: error,
  });
}
