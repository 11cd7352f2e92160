import { WeftError } from '@weft/compose';

/**
 * Waits `ms` milliseconds, or rejects as soon as `signal` fires (so a stopped run stops at once).
 *
 * @throws WeftError `ABORTED` when the signal fires first.
 * @example
 * ```ts
 * await sleep(300, ctx.signal);
 * ```
 */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const aborted = () => {
      clearTimeout(timer);
      reject(new WeftError('ABORTED', 'the wait was cancelled', { cause: signal.reason }));
    };
    if (signal.aborted) return aborted();
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', aborted);
      resolve();
    }, ms);
    signal.addEventListener('abort', aborted, { once: true });
  });
}
