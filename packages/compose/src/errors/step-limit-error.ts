import { WeftError } from './weft-error.js';

/**
 * The run needed more supersteps than `maxSteps` allows (a runaway loop, or a limit set too low).
 *
 * @example
 * ```ts
 * const app = new StateGraph(z.object({ count: z.number() }))
 *   .addNode('loop', (s) => ({ count: s.count + 1 }))
 *   .addEdge(START, 'loop')
 *   .addConditionalEdges('loop', (s) => (s.count >= 0 ? 'loop' : END)) // never ends
 *   .compile();
 * await app.invoke({ count: 0 }, { maxSteps: 10 }).catch((error) => error instanceof StepLimitError); // true
 * ```
 */
export class StepLimitError extends WeftError {
  /** The limit that was reached. */
  readonly limit: number;

  constructor(limit: number) {
    super(
      'STEP_LIMIT',
      `the run reached the step limit of ${limit} without finishing; if the loop is intended, raise maxSteps in compile() or invoke() options`,
    );
    this.name = 'StepLimitError';
    this.limit = limit;
  }
}
