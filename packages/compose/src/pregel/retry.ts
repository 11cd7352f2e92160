import { WeftError } from '../errors/weft-error.js';
import type { ResolvedRetry } from './topology.js';

/** The delay before attempt `attempt + 1`, with jitter when the policy asks for it. */
export function retryDelay(policy: ResolvedRetry, attempt: number): number {
  const base = Math.min(policy.maxDelayMs, policy.initialDelayMs * policy.backoffFactor ** (attempt - 1));
  return policy.jitter ? base * (0.5 + Math.random() * 0.5) : base;
}

/** Whether an error should be retried under a policy. Aborts and Weft definition errors never are. */
export function shouldRetry(policy: ResolvedRetry, error: Error, signal: AbortSignal): boolean {
  if (signal.aborted) return false;
  if (WeftError.isInstance(error) && error.code !== 'NODE_TIMEOUT') return false;
  return policy.retryOn ? policy.retryOn(error) : true;
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
