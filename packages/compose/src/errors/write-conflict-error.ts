import { WeftError } from './weft-error.js';

/**
 * Two nodes wrote the same last-value key in one superstep. Give the key a reducer, or make one node
 * write it.
 *
 * @example
 * ```ts
 * new StateGraph(schema, { reducers: { items: appendReducer } }); // concurrent writes now combine
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
