import { WeftError } from './weft-error.js';

/**
 * A key's reducer threw while a write was applied. Names the node whose write it was, the key, and the
 * checkpoint the write was applied on top of (`undefined` for a run without a checkpointer); the
 * reducer's own error is the `cause`.
 *
 * @example
 * ```ts
 * const positive: Reducer<number> = (current, update) => {
 *   if (update < 0) throw new RangeError(`negative update ${update}`);
 *   return current + update;
 * };
 * const app = new StateGraph(z.object({ total: z.number() }), { reducers: { total: positive } })
 *   .addNode('refund', () => ({ total: -5 }))
 *   .addEdge(START, 'refund')
 *   .addEdge('refund', END)
 *   .compile({ checkpointer: new MemoryCheckpointer() });
 * try {
 *   await app.invoke({ total: 10 }, { threadId: 'order-1' });
 * } catch (error) {
 *   if (error instanceof ReducerError) console.log(error.node, error.key, error.checkpointId, error.cause); // 'refund' 'total' …
 * }
 * ```
 */
export class ReducerError extends WeftError {
  /** The node (or `__start__` for the run input, or `updateState`'s `asNode`) whose write failed. */
  readonly node: string;
  /** The state key whose reducer threw. */
  readonly key: string;
  /** The checkpoint the write was applied on top of, when the run checkpoints. */
  readonly checkpointId: string | undefined;

  constructor(options: { node: string; key: string; checkpointId: string | undefined; cause: unknown }) {
    const reason = options.cause instanceof Error ? options.cause.message : String(options.cause);
    const where = options.checkpointId === undefined ? '' : ` on top of checkpoint "${options.checkpointId}"`;
    super(
      'REDUCER_FAILED',
      `the reducer of "${options.key}" threw on the write of node "${options.node}"${where}: ${reason}`,
      { cause: options.cause },
    );
    this.name = 'ReducerError';
    this.node = options.node;
    this.key = options.key;
    this.checkpointId = options.checkpointId;
  }
}
