/** Every failure the engine reports, as a closed union (`error.code`). */
export type WeftErrorCode =
  | 'GRAPH_INVALID'
  | 'NODE_FAILED'
  | 'NODE_TIMEOUT'
  | 'STEP_LIMIT'
  | 'INVALID_INPUT'
  | 'INVALID_UPDATE'
  | 'WRITE_CONFLICT'
  | 'ABORTED'
  | 'SERIALIZATION'
  | 'CHECKPOINT'
  | 'INVALID_RESUME'
  | 'NOT_FOUND'
  | 'INVALID_ARGUMENT'
  | 'INTERRUPTED';

const marker = Symbol.for('weft.error');

/**
 * The base error of every Weft package. Recognise it with {@link WeftError.isInstance}, which also
 * works across duplicate copies of the package, and branch on its {@link WeftError.code}.
 *
 * @example
 * ```ts
 * try {
 *   await app.invoke(input);
 * } catch (error) {
 *   if (WeftError.isInstance(error) && error.code === 'STEP_LIMIT') console.log('runaway loop');
 * }
 * ```
 */
export class WeftError extends Error {
  /** What went wrong, from a closed union. */
  readonly code: WeftErrorCode;
  readonly [marker] = true;

  constructor(code: WeftErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.name = 'WeftError';
  }

  /** True for any Weft error, even one thrown by another copy of this package. */
  static isInstance(value: unknown): value is WeftError {
    return typeof value === 'object' && value !== null && (value as { [marker]?: unknown })[marker] === true;
  }
}

/** Converts anything thrown into an `Error` (strings and other values are wrapped, never lost). */
export function toError(value: unknown): Error {
  if (value instanceof Error) return value;
  return new Error(typeof value === 'string' ? value : `non-error thrown: ${safeString(value)}`, {
    cause: value,
  });
}

function safeString(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
