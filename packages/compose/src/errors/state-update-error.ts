import type { ZodError } from 'zod';
import type { InputIssue } from './input-validation-error.js';
import { WeftError } from './weft-error.js';

/**
 * A node wrote a value its state schema rejects (zod refinements included). Names the node, the key and
 * the failed checks; thrown when the step's writes are applied, so nothing of that step is kept. Turn
 * the checks off with `compile({ checkUpdates: false })`.
 *
 * @example
 * ```ts
 * const app = new StateGraph(z.object({ age: z.number().int().nonnegative() }))
 *   .addNode('birthday', (s) => ({ age: s.age - 1 })) // a bug
 *   .addEdge(START, 'birthday')
 *   .addEdge('birthday', END)
 *   .compile();
 * try {
 *   await app.invoke({ age: 0 });
 * } catch (error) {
 *   if (error instanceof StateUpdateError) console.log(error.node, error.key, error.issues[0]?.message); // 'birthday', 'age', …
 * }
 * ```
 */
export class StateUpdateError extends WeftError {
  /** The node whose write failed (`__start__` for the run input). */
  readonly node: string;
  /** The state key it wrote. */
  readonly key: string;
  /** Every failed check, as zod reported it (paths inside the key's value). */
  readonly issues: readonly InputIssue[];

  constructor(options: { readonly node: string; readonly key: string; readonly error: ZodError }) {
    const issues = options.error.issues.map((i) => ({ path: i.path, message: i.message, code: i.code }));
    const lines = issues
      .map((i) => `  - ${[options.key, ...i.path.map(String)].join('.')}: ${i.message}`)
      .join('\n');
    super(
      'INVALID_UPDATE',
      `node "${options.node}" wrote "${options.key}", which fails the state schema:\n${lines}`,
      { cause: options.error },
    );
    this.name = 'StateUpdateError';
    this.node = options.node;
    this.key = options.key;
    this.issues = issues;
  }
}
