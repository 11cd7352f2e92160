/**
 * Every failure `@weft/adk` reports, as a closed union (`error.code`).
 *
 * @example
 * ```ts
 * if (AdkError.isInstance(error) && error.code === 'TOOL_TIMEOUT') retryLater();
 * ```
 */
export type AdkErrorCode =
  | 'MODEL_ERROR'
  | 'TOOL_ERROR'
  | 'TOOL_NOT_FOUND'
  | 'INVALID_TOOL_ARGUMENTS'
  | 'TOOL_TIMEOUT'
  | 'ABORTED'
  | 'SCRIPT_EXHAUSTED'
  | 'INVALID_ARGUMENT'
  | 'SESSION_NOT_FOUND'
  | 'SESSION_EXISTS'
  | 'SESSION_STORE'
  | 'MAX_ITERATIONS'
  | 'OUTPUT_INVALID'
  | 'NOT_RESUMABLE'
  | 'UNSUPPORTED_PART';

/** The marker every Weft error carries (shared with `WeftError` of `@weft/compose`). */
const weftMarker = Symbol.for('weft.error');
/** The marker that tells an adk error from other Weft errors, whose codes belong to another union. */
const adkMarker = Symbol.for('weft.adk.error');

/**
 * The base error of `@weft/adk`, shaped like `WeftError` of `@weft/compose`: a readonly `code` from a
 * closed union, a `cause`, and a `Symbol.for` marker so {@link AdkError.isInstance} also recognises
 * errors thrown by a duplicate copy of this package. `WeftError.isInstance` recognises it too.
 *
 * Kept self-contained for now; it is meant to become `class AdkError extends WeftError` later.
 *
 * @example
 * ```ts
 * try {
 *   await model.generate([userMessage('hi')], { signal });
 * } catch (error) {
 *   if (AdkError.isInstance(error) && error.code === 'ABORTED') console.log('cancelled');
 * }
 * ```
 */
export class AdkError extends Error {
  /** What went wrong, from a closed union. */
  readonly code: AdkErrorCode;
  readonly [weftMarker] = true;
  readonly [adkMarker] = true;

  constructor(code: AdkErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.name = 'AdkError';
  }

  /** True for any adk error, even one thrown by another copy of this package. */
  static isInstance(value: unknown): value is AdkError {
    return (
      typeof value === 'object' && value !== null && (value as { [adkMarker]?: unknown })[adkMarker] === true
    );
  }
}
