import type { ZodError } from 'zod';
import { WeftError } from './weft-error.js';

/** One failed check of a value against its schema. */
export interface InputIssue {
  /** Where in the value, e.g. `['items', 2, 'name']`. */
  readonly path: ReadonlyArray<PropertyKey>;
  readonly message: string;
  readonly code: string;
}

/**
 * A value from outside (run input, resume value, state update) failed its zod schema; nothing ran.
 *
 * @example
 * ```ts
 * const app = new StateGraph(z.object({ count: z.number() }))
 *   .addNode('add', (s) => ({ count: s.count + 1 }))
 *   .addEdge(START, 'add')
 *   .addEdge('add', END)
 *   .compile();
 * try {
 *   await app.invoke(JSON.parse('{ "count": "one" }')); // input from outside, e.g. an HTTP body
 * } catch (error) {
 *   if (error instanceof InputValidationError) console.log(error.issues[0]?.path); // ['count']
 * }
 * ```
 */
export class InputValidationError extends WeftError {
  /** Every failed check, as zod reported it. */
  readonly issues: readonly InputIssue[];

  constructor(what: string, error: ZodError) {
    const issues = error.issues.map((i) => ({ path: i.path, message: i.message, code: i.code }));
    const lines = issues
      .map((i) => `  - ${i.path.length > 0 ? i.path.join('.') : '(root)'}: ${i.message}`)
      .join('\n');
    super('INVALID_INPUT', `${what} failed its schema:\n${lines}`, { cause: error });
    this.name = 'InputValidationError';
    this.issues = issues;
  }
}
