import type { NodeEndEvent, NodeErrorEvent, NodeStartEvent, RunEvent } from './run-event.js';

/**
 * Callbacks are subscribers of the run's event stream: nothing reaches them that the stream does not
 * carry. Each is optional (an object with none costs the run nothing: no events are built); an error
 * thrown by a callback is reported with `console.error` and never fails the run.
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

/**
 * Turns callbacks into one event listener, or `undefined` when none is set (so `{}` — what a switched-off
 * subscriber such as tracing without a tracer hands over — costs a run nothing). Each callback is
 * isolated: one that throws does not silence the others.
 */
export function callbacksToListener(callbacks: Callbacks): ((event: RunEvent) => void) | undefined {
  if (!(callbacks.onEvent || callbacks.onStart || callbacks.onEnd || callbacks.onError)) return undefined;
  return (event) => {
    if (callbacks.onEvent) call(callbacks.onEvent, event);
    if (event.type === 'node-start') {
      if (callbacks.onStart) call(callbacks.onStart, event);
    } else if (event.type === 'node-end') {
      if (callbacks.onEnd) call(callbacks.onEnd, event);
    } else if (event.type === 'node-error') {
      if (callbacks.onError) call(callbacks.onError, event);
    }
  };
}

function call<TEvent>(callback: (event: TEvent) => void, event: TEvent): void {
  try {
    callback(event);
  } catch (error) {
    console.error('[weft] a callback threw; the run goes on', error);
  }
}
