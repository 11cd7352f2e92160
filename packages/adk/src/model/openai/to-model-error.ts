import type { WeftError } from '@weft/compose';
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { AdkError } from '../../errors/adk-error.js';
import { toSdkModelError } from '../sdk-error.js';

const openAiErrors = { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError };

/**
 * Maps what the `openai` client threw to a Weft error: aborts to the one abort error (`ABORTED`), everything else to a
 * `ModelError` with the HTTP status, whether it is retryable, and the server's `retry-after`.
 *
 * @example
 * ```ts
 * async function create<T>(call: (signal: AbortSignal) => Promise<T>, signal: AbortSignal): Promise<T> {
 *   try {
 *     return await call(signal); // e.g. client.chat.completions.create(body, { signal })
 *   } catch (error) {
 *     throw toModelError(error, 'openai:gpt-4o-mini', signal);
 *   }
 * }
 * ```
 */
export function toModelError(
  error: unknown,
  modelName: string,
  signal: AbortSignal | undefined,
): AdkError | WeftError<'ABORTED'> {
  return toSdkModelError(error, modelName, signal, openAiErrors);
}
