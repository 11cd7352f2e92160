// Shared parts of the stream tests (streams between nodes, in DAG mode, and from a graph's stream input).
import { END, Graph, type MemoryCheckpointer, runnable, START } from '../src/index.js';

/** A promise with its resolve function, for gating a node or a stream on what the test has seen. */
export function gate<T = void>(): { promise: Promise<T>; open: (value: T) => void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** Lets every pending promise job run (the nodes in these tests wait on promises, never on timers). */
export const drain = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A runnable reading its input stream as it comes: `label` wraps each chunk, `seen` records them. */
export function wrapper(label: string, seen: string[] = []) {
  return runnable({
    transform: async function* (chunks: AsyncIterable<string>) {
      for await (const chunk of chunks) {
        seen.push(chunk);
        yield `${label}(${chunk})`;
      }
    },
  });
}

/**
 * model → parser, where the model yields its input, pauses with `interrupt('more?')`, then yields the resume
 * value; the parser upper-cases each chunk and records in `reads` what it read once its stream ended.
 */
export function pausingPipe(options: {
  mode: 'pregel' | 'dag';
  checkpointer: MemoryCheckpointer;
  reads: string[][];
}) {
  const { mode, checkpointer, reads } = options;
  return new Graph<string, string>()
    .addNode('model', async function* (prompt: string, ctx) {
      yield prompt;
      const more = ctx.interrupt('more?') as string;
      yield more;
    })
    .addNode(
      'parser',
      runnable({
        transform: async function* (chunks: AsyncIterable<string>) {
          const read: string[] = [];
          for await (const chunk of chunks) {
            read.push(chunk);
            yield chunk.toUpperCase();
          }
          reads.push(read);
        },
      }),
    )
    .addEdge(START, 'model')
    .addEdge('model', 'parser')
    .addEdge('parser', END)
    .compile({ mode, checkpointer });
}
