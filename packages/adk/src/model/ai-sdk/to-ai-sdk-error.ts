import type { WeftError } from '@weft/compose';
import { AdkError } from '../../errors/adk-error.js';
import { ModelError } from '../../errors/model-error.js';
import { abortError, isAbortError } from '../../internal/abort.js';
import { describeError } from '../../internal/json.js';
import { isRetryableStatus, retryAfterMs } from '../http-failure.js';
import { isRetryableError } from '../is-retryable-error.js';

interface ApiCallErrorShape {
  readonly statusCode?: unknown;
  readonly isRetryable?: unknown;
  readonly responseHeaders?: unknown;
  readonly message?: unknown;
}

function headersOf(value: unknown): Headers | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const headers = new Headers();
  for (const [name, header] of Object.entries(value))
    if (typeof header === 'string') headers.set(name, header);
  return headers;
}

/**
 * Maps what an AI SDK model threw to an adk error: aborts to `ABORTED`; the AI SDK's `APICallError`
 * (recognised by shape, so no AI SDK code is loaded) to a {@link ModelError} with its status, its
 * `isRetryable` and the `retry-after` header; anything else to a ModelError by the default rule.
 *
 * @example
 * ```ts
 * async function generate<T>(call: (signal: AbortSignal) => Promise<T>, signal: AbortSignal): Promise<T> {
 *   try {
 *     return await call(signal);
 *   } catch (error) {
 *     throw toAiSdkError(error, 'openai:gpt-4o-mini', signal);
 *   }
 * }
 * ```
 */
export function toAiSdkError(
  error: unknown,
  modelName: string,
  signal: AbortSignal | undefined,
): AdkError | WeftError<'ABORTED'> {
  if (
    signal?.aborted === true ||
    isAbortError(error) ||
    (error instanceof Error && error.name === 'AbortError')
  ) {
    return abortError(signal, `the request to model "${modelName}"`);
  }
  if (AdkError.isInstance(error)) return error;
  const prefix = `model "${modelName}" failed`;
  const shape = (typeof error === 'object' && error !== null ? error : {}) as ApiCallErrorShape;
  if (typeof shape.statusCode === 'number') {
    const after = retryAfterMs(headersOf(shape.responseHeaders));
    return new ModelError(`${prefix}: ${describeError(error)}`, {
      status: shape.statusCode,
      retryable:
        typeof shape.isRetryable === 'boolean' ? shape.isRetryable : isRetryableStatus(shape.statusCode),
      cause: error,
      ...(after === undefined ? {} : { retryAfterMs: after }),
    });
  }
  const retryable = typeof shape.isRetryable === 'boolean' ? shape.isRetryable : isRetryableError(error);
  return new ModelError(`${prefix}: ${describeError(error)}`, { retryable, cause: error });
}
