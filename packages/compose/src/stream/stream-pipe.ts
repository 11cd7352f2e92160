import type { RunControl } from '../pregel/run-control.js';
import { isCommand } from '../vocabulary/command.js';
import { AsyncQueue } from './async-queue.js';

/** What a producer feeds as it streams (ADR 022): one reader's {@link StreamPipe}, or a `StreamFanOut` copying to several. */
export interface PipeWriter {
  /** Adds a chunk; a promise while a reader is too far behind. */
  push(chunk: unknown): Promise<void> | undefined;
  /** The producer finished with `output` (its one chunk when it streamed none). */
  finish(output: unknown): void;
  /** The producer paused: its readers pause too. */
  pause(): void;
}

/** Chunks a producer may run ahead of the node reading its stream before it waits (see `AsyncQueue`). */
export const pipeHighWaterMark = 8;

/**
 * The stream between two nodes of one step (ADR 022): the producer task pushes its chunks as they come
 * and waits when the reader falls `pipeHighWaterMark` chunks behind (backpressure); the reader is the
 * successor's `transform` input. It ends when the producer finishes; fails with the run's abort reason
 * when the run is aborted (so a reader never waits on a producer that stopped); fails with
 * {@link SourcePaused} when the producer paused; and lets the producer go on alone once the reader's task
 * ended (`detach`), so a reader that stops early never blocks it.
 */
export class StreamPipe implements PipeWriter {
  readonly #queue = new AsyncQueue<unknown>(pipeHighWaterMark);
  readonly #unfollow: () => void;
  #fed = false;
  #paused = false;
  #detached = false;

  constructor(control: RunControl) {
    this.#unfollow = control.onAbort((reason) => this.#queue.fail(reason));
  }

  /** A pipe holding one whole value: the input of a reader whose producer finished before a pause. */
  static of(control: RunControl, value: unknown): StreamPipe {
    const pipe = new StreamPipe(control);
    pipe.finish(value);
    return pipe;
  }

  /** What the reader iterates (once). */
  get reader(): AsyncIterable<unknown> {
    return this.#queue;
  }

  /** True once the producer paused (the reader's task pauses with it and runs again on resume). */
  get paused(): boolean {
    return this.#paused;
  }

  /** True once the reader's task ended (what is pushed now is dropped). */
  get detached(): boolean {
    return this.#detached;
  }

  /** Adds a chunk; a promise while the reader is too far behind. */
  push(chunk: unknown): Promise<void> | undefined {
    this.#fed = true;
    return this.#queue.push(chunk);
  }

  /**
   * The producer finished with `output`: ends the stream. A producer that streamed nothing (a plain value,
   * or a Command's update) gives its output as the one chunk.
   */
  finish(output: unknown): void {
    if (!this.#fed) this.push(isCommand(output) ? output.update : output);
    this.#queue.close();
    this.#unfollow();
  }

  /** The source ended without a final value (a graph's stream input): the reader's stream just ends. */
  end(): void {
    this.#queue.close();
    this.#unfollow();
  }

  /** The source failed: the reader's stream throws `error` after the chunks it has not read yet. */
  fail(error: unknown): void {
    this.#queue.fail(error);
    this.#unfollow();
  }

  /** The producer paused: the reader fails with {@link SourcePaused}. */
  pause(): void {
    this.#paused = true;
    this.#queue.fail(new SourcePaused());
    this.#unfollow();
  }

  /** The reader's task ended: drops what it did not read and never makes the producer wait again. */
  detach(): void {
    this.#detached = true;
    void this.#queue.return();
    this.#unfollow();
  }
}

/** What a piped node's input stream throws when its producer paused (the node pauses too). */
export class SourcePaused extends Error {
  constructor() {
    super('the node streaming into this one paused; this node runs again when the run resumes');
    this.name = 'SourcePaused';
  }
}
