import type { WeftError } from '@weft/compose';
import { AdkError } from '../errors/adk-error.js';
import { ModelError } from '../errors/model-error.js';
import { abortError } from '../internal/abort.js';
import { describeError } from '../internal/json.js';
import { isRetryableStatus, retryAfterMs } from './http-failure.js';
import { isRetryableError } from './is-retryable-error.js';

// biome-ignore lint/suspicious/noExplicitAny: an SDK's error classes take SDK-specific constructor arguments.
type ErrorClass = abstract new (...args: any[]) => Error;

/**
 * The error classes of a provider SDK built on the Stainless client (`openai`, `@anthropic-ai/sdk`): the
 * same four names, one set per SDK.
 */
export interface SdkErrorClasses {
  readonly APIUserAbortError: ErrorClass;
  readonly APIConnectionTimeoutError: ErrorClass;
  readonly APIConnectionError: ErrorClass;
  readonly APIError: ErrorClass;
  /** Decides whether an `APIError` without a status (an error event inside a stream) is retryable. */
  readonly statuslessRetryable?: ((error: Error) => boolean) | undefined;
}

/**
 * Maps what a Stainless-built provider SDK threw to a Weft error: aborts to the one abort error
 * (`ABORTED`), everything else to a {@link ModelError} with the HTTP status, whether it is retryable
 * (429, 5xx, network failures) and the server's `retry-after`. `classes.statuslessRetryable` decides for an
 * `APIError` without a status (an error event inside a stream).
 *
 * @example
 * ```ts
 * import * as OpenAI from 'openai';
 * const client = new OpenAI.OpenAI({ apiKey: 'sk-…' });
 * const signal = AbortSignal.timeout(30_000);
 * try {
 *   await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] }, { signal });
 * } catch (error) {
 *   throw toSdkModelError(error, 'openai:gpt-4o-mini', signal, OpenAI); // a ModelError with the status, or ABORTED
 * }
 * ```
 */
export function toSdkModelError(
  error: unknown,
  modelName: string,
  signal: AbortSignal | undefined,
  classes: SdkErrorClasses,
): AdkError | WeftError<'ABORTED'> {
  const { statuslessRetryable } = classes;
  if (error instanceof classes.APIUserAbortError || signal?.aborted === true) {
    return abortError(signal, `the request to model "${modelName}"`);
  }
  if (AdkError.isInstance(error)) return error;
  const prefix = `model "${modelName}" failed`;
  if (error instanceof classes.APIConnectionTimeoutError) {
    return new ModelError(`${prefix}: the request timed out`, { retryable: true, cause: error });
  }
  if (error instanceof classes.APIConnectionError) {
    return new ModelError(`${prefix}: could not reach the server (${error.message})`, {
      retryable: true,
      cause: error,
    });
  }
  if (error instanceof classes.APIError) {
    const { status, headers } = error as Error & { status?: unknown; headers?: unknown };
    if (typeof status === 'number') {
      const after = retryAfterMs(headers as Headers | undefined);
      return new ModelError(`${prefix}: ${error.message}`, {
        status,
        retryable: isRetryableStatus(status),
        cause: error,
        ...(after === undefined ? {} : { retryAfterMs: after }),
      });
    }
    if (statuslessRetryable !== undefined) {
      return new ModelError(`${prefix}: ${error.message}`, {
        retryable: statuslessRetryable(error),
        cause: error,
      });
    }
  }
  return new ModelError(`${prefix}: ${describeError(error)}`, {
    retryable: isRetryableError(error),
    cause: error,
  });
}
