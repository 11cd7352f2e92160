/**
 * A task for one node with its own input, returned by a router or a `Command` (map-reduce fan-out).
 * Each `Send` runs its node once in the next superstep, concurrently with the others.
 *
 * @example
 * ```ts
 * const graph = new StateGraph(z.object({ items: z.array(z.number()), squares: z.array(z.number()) }), {
 *   reducers: { squares: appendReducer },
 * }).addNode('square', (s: { item: number }) => ({ squares: [s.item ** 2] }));
 * graph.addConditionalEdges(START, (state) => state.items.map((item) => new Send('square', { item })));
 * ```
 */
export class Send<TNode extends string = string, TInput = unknown> {
  /** Marker for recognising a Send across package copies. */
  readonly kind = 'send' as const;

  constructor(
    /** The node to run. */
    readonly node: TNode,
    /** The input it receives instead of the state (or its inbox in a dataflow graph). */
    readonly input: TInput,
  ) {}
}

/** True when `value` is a {@link Send}. */
export function isSend(value: unknown): value is Send {
  return (
    value instanceof Send || (typeof value === 'object' && value !== null && (value as Send).kind === 'send')
  );
}
