import { WeftError } from './weft-error.js';

/** One problem found while compiling a graph. */
export interface ValidationIssue {
  /** A short machine-readable kind. */
  readonly kind:
    | 'unknown-node'
    | 'duplicate-node'
    | 'reserved-name'
    | 'invalid-name'
    | 'unreachable-node'
    | 'cannot-reach-end'
    | 'dag-cycle'
    | 'undeclared-target'
    | 'missing-entry'
    | 'invalid-option'
    | 'invalid-edge'
    | 'field-mapping';
  /** The node (or edge, as `a -> b`) at fault. */
  readonly at: string;
  /** What is wrong and how to fix it. */
  readonly message: string;
}

/**
 * Thrown by `compile()` with every problem of a graph definition at once.
 *
 * @example
 * ```ts
 * const graph = new StateGraph(z.object({ n: z.number() })).addNode('orphan', (s) => s); // nothing leads to it
 * try {
 *   graph.compile();
 * } catch (error) {
 *   if (error instanceof GraphValidationError) for (const issue of error.issues) console.log(issue.message);
 * }
 * ```
 */
export class GraphValidationError extends WeftError {
  /** Every problem found, in the order they were detected. */
  readonly issues: readonly ValidationIssue[];

  constructor(graphName: string, issues: readonly ValidationIssue[]) {
    const lines = issues.map((issue) => `  - [${issue.kind}] ${issue.at}: ${issue.message}`).join('\n');
    super('GRAPH_INVALID', `graph "${graphName}" is invalid (${issues.length} problem(s)):\n${lines}`);
    this.name = 'GraphValidationError';
    this.issues = issues;
  }
}
