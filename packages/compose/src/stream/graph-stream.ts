import { type RunObserver, runObserver } from '../pregel/run-context.js';
import type { GraphIO } from '../pregel/topology.js';
import { AsyncQueue } from './async-queue.js';
import type { StreamMode } from './stream-modes.js';

/** Options of the stream adapter. */
export interface GraphStreamOptions {
  readonly modes: readonly StreamMode[];
  /** Yield `[mode, payload]` tuples (several modes were asked for). */
  readonly tagged: boolean;
  /** Also yield values/updates/messages/custom of nested subgraphs. */
  readonly subgraphs: boolean;
  /** Shapes the root graph's `values` (a state graph's `output` schema keeps only its keys). */
  readonly present?: (values: unknown) => unknown;
  /**
   * A functional-API entrypoint's view: the root's `values` only once the entrypoint returned, and its
   * node's `updates` as its return value.
   */
  readonly io?: Pick<GraphIO, 'shows' | 'fromUpdate'>;
  /** Items buffered before the run waits for the consumer. */
  readonly highWaterMark?: number;
}

/**
 * Connects a run to a consumer: builds the observer that feeds only the subscribed modes into a
 * bounded queue (backpressure), and aborts the run when the consumer stops early (`onCancel` returns
 * a promise of the run's end, which the consumer's `break` waits for).
 */
export function createGraphStream(options: GraphStreamOptions, onCancel: () => Promise<void> | void) {
  const queue = new AsyncQueue<unknown>(options.highWaterMark ?? 64, onCancel);
  const wants = new Set(options.modes);
  const tag = (mode: StreamMode, payload: unknown): unknown => (options.tagged ? [mode, payload] : payload);
  const put = (mode: StreamMode, payload: unknown): Promise<void> | undefined =>
    queue.push(tag(mode, payload));
  // Events and custom values go in without waiting (see `wait`).
  const offer = (mode: StreamMode, payload: unknown): void => queue.offer(tag(mode, payload));
  const inScope = (path: readonly string[]): boolean => options.subgraphs || path.length === 0;
  // Events and custom values are pushed synchronously; the run waits for the consumer once per step (and
  // at each chunk of a streaming node) instead, so those modes have backpressure too.
  const wait = (): Promise<void> | undefined => queue.waitForSpace();
  const events = wants.has('events');
  const paced = events || wants.has('custom');
  const { io } = options;
  const values: NonNullable<RunObserver['values']> = (values, path) => {
    if (!inScope(path)) return wait();
    return put('values', path.length === 0 && options.present ? options.present(values) : values);
  };
  const updates: NonNullable<RunObserver['updates']> = (node, update, path) =>
    inScope(path) ? put('updates', { node, update, path }) : wait();
  // One literal for every set of modes (`runObserver`): an unwanted listener is `undefined`.
  const observer = runObserver({
    // An entrypoint's listeners wrap the plain ones; a graph's are the plain ones (nothing added per step).
    values: !wants.has('values')
      ? undefined
      : io
        ? (state, path) =>
            path.length === 0 && !io.shows(state as Record<string, unknown>) ? undefined : values(state, path)
        : values,
    updates: !wants.has('updates')
      ? undefined
      : io
        ? (node, update, path) =>
            updates(node, path.length === 0 ? io.fromUpdate(node, update) : update, path)
        : updates,
    chunk: wants.has('messages')
      ? (node, chunk, path, agent) =>
          inScope(path)
            ? put('messages', agent === undefined ? { node, chunk, path } : { node, chunk, path, agent })
            : wait()
      : events
        ? wait
        : undefined,
    custom: wants.has('custom')
      ? (node, data, path) => {
          if (inScope(path)) offer('custom', { node, data, path });
        }
      : undefined,
    event: !events
      ? undefined
      : options.tagged
        ? (event) => offer('events', event)
        : (event) => queue.offer(event),
    pace: paced ? wait : undefined,
  });
  return { queue, observer, put };
}
