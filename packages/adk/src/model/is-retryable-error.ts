import { AdkError } from '../errors/adk-error.js';
import { ModelError } from '../errors/model-error.js';
import { isAbortError } from '../internal/abort.js';

const networkCodes = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** True for HTTP statuses worth retrying: 408, 409, 429 and 5xx. */
function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

function hasNetworkCode(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 3) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && networkCodes.has(code)) return true;
  return hasNetworkCode((error as { cause?: unknown }).cause, depth + 1);
}

/**
 * The default retry rule of {@link withRetry}: a {@link ModelError} says itself (`retryable`, set for
 * 408/409/429/5xx and network failures); other errors are retried when they carry a retryable HTTP
 * `status` or a network error code (`ECONNRESET`, …, also in their `cause`). Aborts and other adk errors
 * are never retried.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const base = new ScriptedChatModel(['Hello!']);
 * const isFlaky = (error: unknown) => error instanceof Error && error.message.includes('ECONNRESET');
 * const model = withRetry(base, { isRetryable: (error) => isRetryableError(error) || isFlaky(error) });
 * ```
 */
export function isRetryableError(error: unknown): boolean {
  if (isAbortError(error)) return false;
  if (error instanceof ModelError) return error.retryable;
  if (AdkError.isInstance(error)) return false;
  const status =
    typeof error === 'object' && error !== null ? (error as { status?: unknown }).status : undefined;
  if (typeof status === 'number') return isRetryableStatus(status);
  return hasNetworkCode(error) || (error instanceof TypeError && error.message === 'fetch failed');
}
