import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from '@anthropic-ai/sdk';
import type { WeftError } from '@weft/compose';
import type { AdkError } from '../../errors/adk-error.js';
import { toSdkModelError } from '../sdk-error.js';

const anthropicErrors = {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  statuslessRetryable: retryableStreamError,
};

/** An error event inside a stream (e.g. `overloaded_error`) has no status: its type says whether to retry. */
function retryableStreamError(error: Error): boolean {
  const type = ((error as { error?: unknown }).error as { error?: { type?: unknown } } | undefined)?.error
    ?.type;
  return type === 'overloaded_error' || type === 'api_error' || type === 'rate_limit_error';
}

/**
 * Maps what the `@anthropic-ai/sdk` client threw to an adk error: aborts to `ABORTED`, everything else
 * to a `ModelError` with the HTTP status, whether it is retryable (429, 5xx, 529 overloaded,
 * network failures, overloaded stream events) and the server's `retry-after`.
 *
 * @example
 * ```ts
 * async function create<T>(call: (signal: AbortSignal) => Promise<T>, signal: AbortSignal): Promise<T> {
 *   try {
 *     return await call(signal); // e.g. client.messages.create(body, { signal })
 *   } catch (error) {
 *     throw toAnthropicError(error, 'anthropic:claude-sonnet-4-5', signal);
 *   }
 * }
 * ```
 */
export function toAnthropicError(
  error: unknown,
  modelName: string,
  signal: AbortSignal | undefined,
): AdkError | WeftError<'ABORTED'> {
  return toSdkModelError(error, modelName, signal, anthropicErrors);
}
