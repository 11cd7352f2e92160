/** What went wrong, as a closed union (each maps to one HTTP status). */
export type ServerErrorCode =
  | 'INVALID_ARGUMENT'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'BUSY'
  | 'TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'TOO_MANY_RUNS'
  | 'UNAVAILABLE';

const MARKER = Symbol.for('weft.server.error');

const statuses: Readonly<Record<ServerErrorCode, number>> = {
  INVALID_ARGUMENT: 422,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  BUSY: 422,
  TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_RUNS: 429,
  UNAVAILABLE: 503,
};

/**
 * The one error `@weft/server` throws and answers with: a `code` from a closed union, the HTTP status it
 * maps to, and a message saying what is wrong (naming the field or resource). Recognised across package
 * copies with {@link WeftServerError.isInstance}.
 *
 * @example
 * ```ts
 * try {
 *   await createServer({ graphs: {} });
 * } catch (error) {
 *   if (WeftServerError.isInstance(error)) console.log(error.code, error.status); // INVALID_ARGUMENT 422
 * }
 * ```
 */
export class WeftServerError extends Error {
  readonly code: ServerErrorCode;
  /** The HTTP status this error is answered with. */
  readonly status: number;
  readonly [MARKER] = true;

  constructor(code: ServerErrorCode, message: string, options?: { readonly cause?: unknown }) {
    super(message, options);
    this.name = 'WeftServerError';
    this.code = code;
    this.status = statuses[code];
  }

  /** Whether `value` is a `WeftServerError` (from any copy of the package). */
  static isInstance(value: unknown): value is WeftServerError {
    return typeof value === 'object' && value !== null && (value as { [MARKER]?: boolean })[MARKER] === true;
  }
}

/** A `NOT_FOUND` error naming the resource kind and id (the same answer for "absent" and "not yours"). */
export function notFound(kind: string, id: string): WeftServerError {
  return new WeftServerError('NOT_FOUND', `${kind} "${id}" not found`);
}
