import { WeftError } from '../errors/weft-error.js';
import type { ResolvedRetry } from './topology.js';

/** The delay before attempt `attempt + 1`, with jitter when the policy asks for it. */
export function retryDelay(policy: ResolvedRetry, attempt: number): number {
  const base = Math.min(policy.maxDelayMs, policy.initialDelayMs * policy.backoffFactor ** (attempt - 1));
  return policy.jitter ? base * (0.5 + Math.random() * 0.5) : base;
}

/**
 * Whether an error should be retried under a policy: its `retryOn`, else {@link defaultRetryOn}. Aborts
 * and Weft's own errors (definition mistakes, interrupts) never are, whatever `retryOn` says; a node
 * timeout (`NODE_TIMEOUT`) is asked about like any error.
 */
export function shouldRetry(policy: ResolvedRetry, error: Error, signal: AbortSignal): boolean {
  if (signal.aborted) return false;
  if (WeftError.isInstance(error) && error.code !== 'NODE_TIMEOUT') return false;
  return (policy.retryOn ?? defaultRetryOn)(error);
}

/** HTTP statuses the default policy does not retry: client errors that fail the same way again. */
const noRetryStatus: ReadonlySet<number> = new Set([400, 401, 402, 403, 404, 405, 406, 407, 409]);

/**
 * The errors a retry policy without `retryOn` retries — the same predicate as LangGraph.js's default
 * (`DEFAULT_RETRY_ON_HANDLER` in its `pregel/retry.ts`): everything except a cancel or abort (a message
 * starting with `Cancel` or `AbortError`, or the name `AbortError`), LangGraph's `GraphValueError`, a
 * request timeout of axios-style clients (`code: 'ECONNABORTED'`), an HTTP client error with status 400,
 * 401, 402, 403, 404, 405, 406, 407 or 409 (read from `error.response.status`, else `error.status`,
 * numbers or numeric strings), and an OpenAI-style `error.error.code === 'insufficient_quota'`. Server
 * errors (5xx), 408, 429 and network errors are retried.
 *
 * @example
 * ```ts
 * declare function callModel(state: { answer?: string }): Promise<{ answer: string }>;
 * const rateLimitsAndDefaults = (error: Error) => error.message.includes('rate limit') || defaultRetryOn(error);
 * new StateGraph(z.object({ answer: z.string().optional() }))
 *   .addNode('model', callModel, { retry: { maxAttempts: 5, retryOn: rateLimitsAndDefaults } });
 * ```
 */
export function defaultRetryOn(error: Error): boolean {
  const message = typeof error.message === 'string' ? error.message : '';
  if (message.startsWith('Cancel') || message.startsWith('AbortError') || error.name === 'AbortError')
    return false;
  if (error.name === 'GraphValueError') return false;
  const fields = error as {
    code?: unknown;
    status?: unknown;
    response?: { status?: unknown };
    error?: { code?: unknown };
  };
  if (fields.code === 'ECONNABORTED') return false;
  const status = fields.response?.status ?? fields.status;
  if (status && noRetryStatus.has(Number(status))) return false;
  if (fields.error?.code === 'insufficient_quota') return false;
  return true;
}

/** Waits `ms`, or rejects with the signal's reason when it fires first. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
