import { WeftError } from './weft-error.js';

/**
 * The run needed more supersteps than `maxSteps` allows (a runaway loop, or a limit set too low).
 *
 * @example
 * ```ts
 * await expect(app.invoke(input, { maxSteps: 10 })).rejects.toBeInstanceOf(StepLimitError);
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
