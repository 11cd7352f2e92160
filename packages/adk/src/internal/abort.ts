import { abortError as composeAbortError, WeftError } from '@weft/compose';

/**
 * Builds the one abort error of Weft (compose's: a `WeftError` with code `ABORTED`, name `AbortError`)
 * for a signal; its reason becomes the cause.
 *
 * @example
 * ```ts
 * const signal = AbortSignal.abort(new Error('user left'));
 * throw abortError(signal, 'the model call'); // ABORTED, cause: the signal's reason
 * ```
 */
export function abortError(signal?: AbortSignal, what = 'the operation'): WeftError<'ABORTED'> {
  return composeAbortError(signal?.reason, what);
}

/**
 * Throws the `ABORTED` error when the signal has fired.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * throwIfAborted(controller.signal, 'the stream of model "scripted"'); // nothing: not aborted yet
 * ```
 */
export function throwIfAborted(signal: AbortSignal | undefined, what?: string): void {
  if (signal?.aborted === true) throw abortError(signal, what);
}

/**
 * Calls `listener` once when the signal fires; returns a function that removes it.
 *
 * @example
 * ```ts
 * const [outer, controller] = [new AbortController(), new AbortController()];
 * const dispose = onAbort(outer.signal, () => controller.abort()); // the inner call stops with the outer one
 * dispose(); // when the inner call is done
 * ```
 */
export function onAbort(signal: AbortSignal | undefined, listener: () => void): () => void {
  if (signal === undefined) return () => {};
  if (signal.aborted) {
    listener();
    return () => {};
  }
  signal.addEventListener('abort', listener, { once: true });
  return () => signal.removeEventListener('abort', listener);
}

/**
 * Waits `ms` milliseconds; rejects with `ABORTED` as soon as the signal fires.
 *
 * @example
 * ```ts
 * await sleep(500, AbortSignal.timeout(5_000));
 * ```
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(abortError(signal));
      return;
    }
    const timer = setTimeout(() => {
      dispose();
      resolve();
    }, ms);
    const dispose = onAbort(signal, () => {
      clearTimeout(timer);
      reject(abortError(signal));
    });
  });
}

/**
 * True for errors that mean "cancelled": Weft `ABORTED` errors and DOM-style `AbortError`s.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * controller.abort();
 * try {
 *   await fetch('https://example.com', { signal: controller.signal });
 * } catch (error) {
 *   if (!isAbortError(error)) throw error; // a cancelled request is not a failure
 * }
 * ```
 */
export function isAbortError(error: unknown): boolean {
  if (WeftError.isInstance(error)) return error.code === 'ABORTED';
  return error instanceof Error && error.name === 'AbortError';
}
