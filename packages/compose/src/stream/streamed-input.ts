import type { RunControl } from '../pregel/run-control.js';
import { StreamFanOut } from './stream-fan-out.js';
import { StreamPipe } from './stream-pipe.js';

/**
 * A graph's own stream input (`collect`/`transform` on a compiled graph, ADR 022), handed to the nodes
 * START feeds when every one of them reads a stream as it comes. Each such node opens its own
 * {@link StreamPipe}; once all `readers` opened theirs, one pump reads the source and pushes each chunk
 * into every pipe, waiting while any reader is `pipeHighWaterMark` chunks behind (backpressure from the
 * slowest reader up to the caller's iterator). A reader whose task ended is skipped; when none is left,
 * or the run aborts, the source's iterator is closed (`return()`). A failing source fails every reader.
 */
export class StreamedInput {
  readonly #source: AsyncIterable<unknown>;
  readonly #readers: number;
  readonly #pipes: StreamPipe[] = [];

  /** `readers`: how many nodes will open a pipe (the pump starts when the last one did). */
  constructor(source: AsyncIterable<unknown>, readers: number) {
    this.#source = source;
    this.#readers = readers;
  }

  /** A pipe for one reading node; the last reader to open one starts the pump. */
  open(control: RunControl): StreamPipe {
    const pipe = new StreamPipe(control);
    this.#pipes.push(pipe);
    if (this.#pipes.length === this.#readers) void this.#pump(control);
    return pipe;
  }

  /** How the input shows in events and logs (it is read by the nodes, not held). */
  toJSON(): string {
    return '[stream input]';
  }

  async #pump(control: RunControl): Promise<void> {
    const readers = new StreamFanOut(this.#pipes);
    const iterator = this.#source[Symbol.asyncIterator]();
    const unfollow = control.onAbort(() => void iterator.return?.()?.then(undefined, ignore));
    try {
      for (;;) {
        const next = await iterator.next();
        if (next.done || control.aborted) break;
        const wait = readers.push(next.value);
        if (wait) await wait;
        if (readers.detached) {
          await iterator.return?.();
          break;
        }
      }
      readers.end();
    } catch (error) {
      readers.fail(error);
    } finally {
      unfollow();
    }
  }
}

function ignore(): void {}
