import { WeftError } from './weft-error.js';

/**
 * Two nodes wrote the same last-value key in one superstep. Give the key a reducer, or make one node
 * write it.
 *
 * @example
 * ```ts
 * const schema = z.object({ items: z.array(z.string()) });
 * const fanOut = (graph: StateGraph<typeof schema>) =>
 *   graph
 *     .addNode('a', () => ({ items: ['a'] }))
 *     .addNode('b', () => ({ items: ['b'] }))
 *     .addEdge(START, 'a')
 *     .addEdge(START, 'b')
 *     .addEdge('a', END)
 *     .addEdge('b', END)
 *     .compile();
 * await fanOut(new StateGraph(schema)).invoke({ items: [] }).catch((error: unknown) => {
 *   if (error instanceof WriteConflictError) console.log(error.message); // 'a' and 'b' both wrote "items" in one step
 * });
 * await fanOut(new StateGraph(schema, { reducers: { items: appendReducer } })).invoke({ items: [] }); // { items: ['a', 'b'] }
 * ```
 */
export class WriteConflictError extends WeftError {
  /** The state key (or dataflow node input) written twice. */
  readonly key: string;
  /** The nodes that wrote it, in task order. */
  readonly nodes: readonly string[];

  constructor(key: string, nodes: readonly string[], hint: string) {
    super(
      'WRITE_CONFLICT',
      `"${key}" was written by ${nodes.map((n) => `"${n}"`).join(' and ')} in one step; ${hint}`,
    );
    this.name = 'WriteConflictError';
    this.key = key;
    this.nodes = nodes;
  }
}
