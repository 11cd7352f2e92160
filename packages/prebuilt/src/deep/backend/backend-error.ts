import { AdkError, type AdkErrorCode } from '@weft/adk';

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
  /** A FIFO, socket or device: only regular files are read or written. */
  | 'NOT_A_REGULAR_FILE'
  /** A write to a file with more than one hard link (it may be the same file as one outside the root). */
  | 'HARD_LINKED'
  | 'TOO_LARGE'
  /** More symbolic links in a row than the backend follows (40). */
  | 'TOO_MANY_LINKS'
  | 'PERMISSION_DENIED'
  /** Any other failure of the filesystem (its code is in the message, never the host path). */
  | 'IO_ERROR'
  /** The run's abort signal fired (code `ABORTED`). */
  | 'ABORTED'
  /** The operation took longer than the backend's timeout (code `TOOL_TIMEOUT`). */
  | 'TIMEOUT';

function codeOf(reason: BackendErrorReason): AdkErrorCode {
  if (reason === 'ABORTED') return 'ABORTED';
  if (reason === 'TIMEOUT') return 'TOOL_TIMEOUT';
  if (reason === 'IO_ERROR' || reason === 'PERMISSION_DENIED') return 'TOOL_ERROR';
  return 'INVALID_ARGUMENT';
}

const marker = Symbol.for('weft.prebuilt.backend-error');

/**
 * A filesystem backend refused or failed an operation, with a `reason`. The code is `INVALID_ARGUMENT`
 * for refusals, `ABORTED`/`TOOL_TIMEOUT` for a cancelled or timed-out operation and `TOOL_ERROR` for
 * other filesystem failures. Its message names the virtual path (never the host path of the root) and
 * says what to do instead; tools pass it to the model. The `cause` may hold the original Node.js error,
 * host path included, for the operator's logs.
 *
 * @example
 * ```ts
 * const backend = new LocalBackend({ root: '/srv/workspace' });
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
    super(codeOf(reason), message, options);
    this.name = 'BackendError';
    this.reason = reason;
    this.path = path;
  }

  /** True for a backend error, even one thrown by another copy of this package. */
  static override isInstance(value: unknown): value is BackendError {
    return typeof value === 'object' && value !== null && (value as { [marker]?: unknown })[marker] === true;
  }
}
