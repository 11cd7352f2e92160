import type { ChunkEvent, NodeEndEvent, NodeErrorEvent, NodeStartEvent, RunEvent } from './run-event.js';
import { streamCallbackListener } from './stream-callbacks.js';

/**
 * Callbacks are subscribers of the run's event stream: nothing reaches them that the stream does not
 * carry. Each is optional (an object with none costs the run nothing: no events are built); an error
 * thrown by a callback is reported with `console.error` and never fails the run.
 *
 * @example
 * ```ts
 * const app = new StateGraph(z.object({ count: z.number() }))
 *   .addNode('add', (s) => ({ count: s.count + 1 }))
 *   .addEdge(START, 'add')
 *   .addEdge('add', END)
 *   .compile();
 * await app.invoke({ count: 0 }, { callbacks: { onEnd: (e) => console.log(e.node, e.durationMs) } });
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
  /**
   * A node task started with a stream as its input (a node a stream flows into, ADR 022): `input`
   * yields the chunks it receives, as they come, and ends when its producer does. Eino's
   * `OnStartWithStreamInput`. The stream buffers, so reading it slowly never slows the run.
   */
  readonly onStartWithStreamInput?: (event: NodeStartEvent, input: AsyncIterable<unknown>) => void;
  /**
   * A node task's output is a stream: called at its first chunk; `output` yields that chunk and the
   * rest as they come, ends at the task's end and fails if the task fails. Eino's
   * `OnEndWithStreamOutput`. Buffered like the input stream.
   */
  readonly onEndWithStreamOutput?: (event: ChunkEvent, output: AsyncIterable<unknown>) => void;
}

/**
 * Turns callbacks into one event listener, or `undefined` when none is set (so `{}` — what a switched-off
 * subscriber such as tracing without a tracer hands over — costs a run nothing). Each callback is
 * isolated: one that throws does not silence the others.
 */
export function callbacksToListener(callbacks: Callbacks): ((event: RunEvent) => void) | undefined {
  const streams =
    callbacks.onStartWithStreamInput || callbacks.onEndWithStreamOutput
      ? streamCallbackListener(callbacks, call)
      : undefined;
  if (!(callbacks.onEvent || callbacks.onStart || callbacks.onEnd || callbacks.onError || streams))
    return undefined;
  return (event) => {
    if (streams) streams(event);
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
