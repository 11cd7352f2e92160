/**
 * Every failure `@weft/eval` reports, as a closed union (`error.code`).
 *
 * @example
 * ```ts
 * if (EvaluationError.isInstance(error) && error.code === 'CASSETTE_MISS') console.log(error.message);
 * ```
 */
export type EvaluationErrorCode =
  | 'INVALID_EVAL_SET'
  | 'INVALID_ARGUMENT'
  | 'CASSETTE_MISS'
  | 'CASSETTE_INVALID'
  | 'JUDGE_FAILED'
  | 'TARGET_NOT_FOUND';

const weftMarker = Symbol.for('weft.error');
const evalMarker = Symbol.for('weft.eval.error');

/**
 * The base error of `@weft/eval`: a readonly `code` from a closed union, a `cause`, and the shared
 * `Symbol.for('weft.error')` marker, so `WeftError.isInstance` recognises it as well as
 * {@link EvaluationError.isInstance}.
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
export class EvaluationError extends Error {
  /** What went wrong, from a closed union. */
  readonly code: EvaluationErrorCode;
  readonly [weftMarker] = true;
  readonly [evalMarker] = true;

  constructor(code: EvaluationErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.name = 'EvaluationError';
  }

  /** True for any eval error, even one thrown by another copy of this package. */
  static isInstance(value: unknown): value is EvaluationError {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as { [evalMarker]?: unknown })[evalMarker] === true
    );
  }
}
