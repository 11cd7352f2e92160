import { WeftError } from './weft-error.js';

/**
 * A node failed (after its retries). The original error is the `cause`.
 *
 * @example
 * ```ts
 * const app = new StateGraph(z.object({ url: z.string() }))
 *   .addNode('fetch', (): { url: string } => {
 *     throw new Error('offline');
 *   })
 *   .addEdge(START, 'fetch')
 *   .addEdge('fetch', END)
 *   .compile();
 * try {
 *   await app.invoke({ url: 'https://example.com' });
 * } catch (error) {
 *   if (error instanceof NodeError) console.log(error.node, error.step, error.attempt, error.cause); // 'fetch', 0, 1, Error: offline
 * }
 * ```
 */
export class NodeError extends WeftError {
  /** The node path, outermost first (subgraph nodes are nested). */
  readonly path: readonly string[];
  /** The failing node's name. */
  readonly node: string;
  /** The superstep it failed in. */
  readonly step: number;
  /** The attempt that failed last (1-based). */
  readonly attempt: number;

  constructor(options: {
    path: readonly string[];
    step: number;
    attempt: number;
    cause: unknown;
    timeout?: boolean;
  }) {
    const node = options.path[options.path.length - 1] ?? '?';
    const reason = options.cause instanceof Error ? options.cause.message : String(options.cause);
    super(
      options.timeout === true ? 'NODE_TIMEOUT' : 'NODE_FAILED',
      `node "${options.path.join(' > ')}" failed at step ${options.step} (attempt ${options.attempt}): ${reason}`,
      { cause: options.cause },
    );
    this.name = 'NodeError';
    this.path = options.path;
    this.node = node;
    this.step = options.step;
    this.attempt = options.attempt;
  }
}
