import { WeftError } from './weft-error.js';

/**
 * A node changed a frozen value in place — in development and tests, the state a node receives is
 * deep-frozen (see the `freezeState` compile option), so `state.items.push(x)` fails here instead of
 * silently changing the run's memory but not its checkpoints. Return an update instead (`{ items: [x] }`
 * with an append reducer, `{ items: [...state.items, x] }` without), or write mutations against a draft
 * with `ctx.produce`. Arrives as the `cause` of the node's `NodeError`, and is never retried.
 *
 * @example
 * ```ts
 * const app = new StateGraph(z.object({ items: z.array(z.number()) }))
 *   .addNode('add', (s) => {
 *     s.items.push(2); // a node must return its update, not change the state it was given
 *     return {};
 *   })
 *   .addEdge(START, 'add')
 *   .addEdge('add', END)
 *   .compile();
 * try {
 *   await app.invoke({ items: [1] });
 * } catch (error) {
 *   if (error instanceof NodeError && error.cause instanceof StateMutationError)
 *     console.log(error.cause.node, error.cause.key); // 'add', 'items' when the engine can tell
 * }
 * ```
 */
export class StateMutationError extends WeftError {
  /** The node that changed its input in place. */
  readonly node: string;
  /** The state key it changed, when the engine can tell (an assignment to a top-level key). */
  readonly key: string | undefined;

  constructor(options: { node: string; key: string | undefined; cause: unknown }) {
    const reason = options.cause instanceof Error ? options.cause.message : String(options.cause);
    const what = options.key === undefined ? 'a frozen value' : `state key "${options.key}"`;
    super(
      'STATE_MUTATED',
      `node "${options.node}" changed ${what} in place (${reason}); state handed to nodes is frozen in development so such changes fail instead of diverging from the checkpoints: return an update, or use ctx.produce(state, (draft) => { ... })`,
      { cause: options.cause },
    );
    this.name = 'StateMutationError';
    this.node = options.node;
    this.key = options.key;
  }
}
