import type { NodeEndEvent, NodeErrorEvent, NodeStartEvent, RunEvent } from './run-event.js';

/**
 * Callbacks are subscribers of the run's event stream: nothing reaches them that the stream does not
 * carry. Each is optional; an error thrown by a callback is reported with `console.error` and never
 * fails the run.
 *
 * @example
 * ```ts
 * await app.invoke(input, { callbacks: { onEnd: (e) => console.log(e.node, e.durationMs) } });
 * ```
 */
export interface Callbacks {
  /** Every event. */
  readonly onEvent?: (event: RunEvent) => void;
  /** A node task started. */
  readonly onStart?: (event: NodeStartEvent) => void;
  /** A node task finished. */
  readonly onEnd?: (event: NodeEndEvent) => void;
  /** A node task failed for good. */
  readonly onError?: (event: NodeErrorEvent) => void;
}

/** Turns callbacks into one event listener. */
export function callbacksToListener(callbacks: Callbacks): (event: RunEvent) => void {
  return (event) => {
    try {
      callbacks.onEvent?.(event);
      if (event.type === 'node-start') callbacks.onStart?.(event);
      else if (event.type === 'node-end') callbacks.onEnd?.(event);
      else if (event.type === 'node-error') callbacks.onError?.(event);
    } catch (error) {
      console.error('[weft] a callback threw; the run goes on', error);
    }
  };
}
