import type { PipeWriter, StreamPipe } from './stream-pipe.js';

/**
 * One stream copied to several readers, each through its own {@link StreamPipe} (as Eino copies a node's
 * stream to every successor): every chunk goes to every reader still reading, and the producer waits
 * while any of them is `pipeHighWaterMark` chunks behind — backpressure bounded by the slowest reader,
 * so no copy buffers without limit. A reader whose task ended is skipped from then on; once all are
 * gone the producer goes on alone.
 */
export class StreamFanOut implements PipeWriter {
  constructor(readonly pipes: readonly StreamPipe[]) {}

  /** True once every reader's task ended. */
  get detached(): boolean {
    return this.pipes.every((pipe) => pipe.detached);
  }

  push(chunk: unknown): Promise<void> | undefined {
    let waits: Array<Promise<void>> | undefined;
    for (const pipe of this.pipes) {
      const wait = pipe.detached ? undefined : pipe.push(chunk);
      if (wait) (waits ??= []).push(wait);
    }
    if (!waits) return undefined;
    return waits.length === 1 ? waits[0] : Promise.all(waits).then(ignore);
  }

  finish(output: unknown): void {
    for (const pipe of this.pipes) pipe.finish(output);
  }

  pause(): void {
    for (const pipe of this.pipes) pipe.pause();
  }

  /** The source ended without a final value (a graph's stream input): every reader's stream ends. */
  end(): void {
    for (const pipe of this.pipes) pipe.end();
  }

  /** The source failed: every reader's stream throws `error`. */
  fail(error: unknown): void {
    for (const pipe of this.pipes) pipe.fail(error);
  }
}

/** The writer for a producer's readers: the pipe itself for one, a fan-out for several. */
export function writerOf(pipes: readonly StreamPipe[]): PipeWriter {
  return pipes.length === 1 ? (pipes[0] as StreamPipe) : new StreamFanOut(pipes);
}

function ignore(): void {}
