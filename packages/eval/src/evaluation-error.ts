import { WeftError } from '@weft/compose';

/**
 * Every failure `@weft/eval` reports, as a closed union (`error.code`).
 *
 * @example
 * ```ts
 * function report(error: unknown): void {
 *   if (EvaluationError.isInstance(error) && error.code === 'CASSETTE_MISS') console.log(error.message);
 * }
 * ```
 */
export type EvaluationErrorCode =
  | 'INVALID_EVAL_SET'
  | 'INVALID_ARGUMENT'
  | 'CASSETTE_MISS'
  | 'CASSETTE_INVALID'
  | 'JUDGE_FAILED'
  | 'TARGET_NOT_FOUND';

const evalMarker = Symbol.for('weft.eval.error');

/**
 * The base error of `@weft/eval`: compose's `WeftError` with this package's closed code union, so
 * `WeftError.isInstance` recognises it as well as {@link EvaluationError.isInstance}.
 *
 * @example
 * ```ts
 * try {
 *   parseEvalSet('{"cases": 3}', 'json');
 * } catch (error) {
 *   if (EvaluationError.isInstance(error)) console.log(error.code); // INVALID_EVAL_SET
 * }
 * ```
 */
export class EvaluationError extends WeftError<EvaluationErrorCode> {
  override readonly family: string = 'eval';
  readonly [evalMarker] = true;

  constructor(code: EvaluationErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = 'EvaluationError';
  }

  /** True for any eval error, even one thrown by another copy of this package. */
  static override isInstance(value: unknown): value is EvaluationError {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as { [evalMarker]?: unknown })[evalMarker] === true
    );
  }
}
