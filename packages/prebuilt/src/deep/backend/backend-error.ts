import { AdkError } from '@weft/adk';

/**
 * Why a backend refused or failed an operation.
 *
 * @example
 * ```ts
 * const reason: BackendErrorReason = 'PATH_OUTSIDE_ROOT';
 * ```
 */
export type BackendErrorReason =
  | 'PATH_OUTSIDE_ROOT'
  | 'INVALID_PATH'
  | 'NOT_FOUND'
  | 'NOT_A_FILE'
  | 'NOT_A_DIRECTORY'
  | 'TOO_LARGE';

const marker = Symbol.for('weft.prebuilt.backend-error');

/**
 * A filesystem backend refused or failed an operation (code `INVALID_ARGUMENT`, with a `reason`). Its
 * message names the path and says what to do instead; tools pass it to the model.
 *
 * @example
 * ```ts
 * try {
 *   await backend.read('../secrets.txt');
 * } catch (error) {
 *   if (BackendError.isInstance(error) && error.reason === 'PATH_OUTSIDE_ROOT') console.log('refused');
 * }
 * ```
 */
export class BackendError extends AdkError {
  readonly reason: BackendErrorReason;
  readonly path: string;
  readonly [marker] = true;

  constructor(reason: BackendErrorReason, path: string, message: string, options?: { cause?: unknown }) {
    super('INVALID_ARGUMENT', message, options);
    this.name = 'BackendError';
    this.reason = reason;
    this.path = path;
  }

  /** True for a backend error, even one thrown by another copy of this package. */
  static override isInstance(value: unknown): value is BackendError {
    return typeof value === 'object' && value !== null && (value as { [marker]?: unknown })[marker] === true;
  }
}
