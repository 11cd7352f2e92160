/**
 * Every failure `@weft/a2a` reports, as a closed union (`error.code`).
 *
 * @example
 * ```ts
 * function report(error: unknown): void {
 *   if (WeftA2aError.isInstance(error) && error.code === 'CARD_UNAVAILABLE') console.error(error.message);
 * }
 * ```
 */
export type WeftA2aErrorCode =
  /** A bad option or argument (the message names it). */
  | 'INVALID_ARGUMENT'
  /** The remote agent's card could not be fetched or read. */
  | 'CARD_UNAVAILABLE'
  /** The remote agent answered a request with an error, or the connection broke during it. */
  | 'REQUEST_FAILED'
  /** The remote task ended as failed or rejected. */
  | 'REMOTE_TASK_FAILED'
  /** The handler or server was closed. */
  | 'CLOSED';

/** The marker every Weft error carries (shared with `WeftError` of `@weft/compose`). */
const weftMarker = Symbol.for('weft.error');
/** The marker that tells an A2A error from other Weft errors. */
const a2aMarker = Symbol.for('weft.a2a.error');

/**
 * The base error of `@weft/a2a`, shaped like `WeftError` of `@weft/compose`: a readonly `code` from a
 * closed union, a `cause`, and a `Symbol.for` marker so {@link WeftA2aError.isInstance} also recognises
 * errors thrown by a duplicate copy of this package. (The SDK's own `A2AError` carries protocol error
 * codes; it is the `cause` where one was thrown.)
 *
 * @example
 * ```ts
 * try {
 *   await RemoteA2aAgent.fromUrl({ name: 'researcher', url: 'http://127.0.0.1:9/' }); // nothing listens there
 * } catch (error) {
 *   if (WeftA2aError.isInstance(error)) console.error(error.code, error.message); // CARD_UNAVAILABLE …
 * }
 * ```
 */
export class WeftA2aError extends Error {
  /** What went wrong, from a closed union. */
  readonly code: WeftA2aErrorCode;
  readonly [weftMarker] = true;
  readonly [a2aMarker] = true;

  constructor(code: WeftA2aErrorCode, message: string, options?: { readonly cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.name = 'WeftA2aError';
  }

  /** True for any error of this package, even one thrown by another copy of it. */
  static isInstance(value: unknown): value is WeftA2aError {
    return (
      typeof value === 'object' && value !== null && (value as { [a2aMarker]?: unknown })[a2aMarker] === true
    );
  }
}

/** The message of anything thrown. */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
