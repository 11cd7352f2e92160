import { BackendError } from './backend-error.js';

/** What {@link bounded} needs to know about the operation it bounds. */
export interface BoundedOptions {
  /** The caller's signal (the run's); aborting it rejects with reason `ABORTED`. */
  readonly signal?: AbortSignal | undefined;
  /** Rejects with reason `TIMEOUT` after this many milliseconds (`Infinity`: never). */
  readonly timeoutMs: number;
  /** The path as the caller spelled it, and normalized: the only paths an error may name. */
  readonly path: string;
  readonly virtual: string;
}

/**
 * Runs one filesystem operation under the caller's abort signal and a timeout. The returned promise
 * settles as soon as either fires, even if a system call of the operation is still in flight (its
 * result is dropped and its handles are closed by the operation's own `finally` blocks); the signal
 * handed to `operation` fires at the same moment, so it stops before its next step.
 *
 * @throws BackendError `ABORTED` when the signal fires, `TIMEOUT` when the time is up.
 * @example
 * ```ts
 * import { readFile } from 'node:fs/promises';
 * const run = new AbortController(); // the run's signal
 * const text = await bounded({ signal: run.signal, timeoutMs: 5_000, path: 'notes.md', virtual: '/notes.md' }, (inner) =>
 *   readFile('/srv/workspace/notes.md', { encoding: 'utf8', signal: inner }),
 * ); // BackendError TIMEOUT after 5 s, ABORTED when the run is cancelled
 * ```
 */
export async function bounded<T>(
  options: BoundedOptions,
  operation: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const { signal, timeoutMs, path, virtual } = options;
  const aborted = () =>
    new BackendError('ABORTED', path, `the operation on "${virtual}" was cancelled`, {
      cause: signal?.reason,
    });
  if (signal?.aborted) throw aborted();
  const controller = new AbortController();
  let stop: (error: BackendError) => void = () => {};
  const stopped = new Promise<never>((_, reject) => {
    stop = (error) => {
      controller.abort(error);
      reject(error);
    };
  });
  const onAbort = () => stop(aborted());
  signal?.addEventListener('abort', onAbort, { once: true });
  const timer = Number.isFinite(timeoutMs)
    ? setTimeout(
        () =>
          stop(
            new BackendError(
              'TIMEOUT',
              path,
              `the operation on "${virtual}" took longer than ${timeoutMs} ms`,
            ),
          ),
        timeoutMs,
      )
    : undefined;
  const work = operation(controller.signal);
  work.catch(() => {}); // settled through the race below, or dropped after an abort or a timeout
  try {
    return await Promise.race([work, stopped]);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

const described: Readonly<Record<string, [BackendError['reason'], string]>> = {
  ENOENT: ['NOT_FOUND', 'does not exist; use ls or glob to find files'],
  ENOTDIR: ['NOT_A_DIRECTORY', 'has a file where a folder is expected'],
  EISDIR: ['NOT_A_FILE', 'is a directory'],
  ENAMETOOLONG: ['INVALID_PATH', 'has a name that is too long'],
  ELOOP: ['TOO_MANY_LINKS', 'goes through too many symbolic links'],
  EACCES: ['PERMISSION_DENIED', 'is not accessible (permission denied)'],
  EPERM: ['PERMISSION_DENIED', 'is not accessible (operation not permitted)'],
  ENXIO: ['NOT_A_REGULAR_FILE', 'is not a regular file'],
};

/**
 * Turns any failure of a filesystem call into a `BackendError` that names only the virtual path: Node's
 * own messages spell the host path (`ENAMETOOLONG: name too long, open '/srv/root/…'`), which the
 * model must never see. The original error stays available as `cause`.
 *
 * @example
 * ```ts
 * import { readFile } from 'node:fs/promises';
 * try {
 *   await readFile('/srv/workspace/notes.md', 'utf8');
 * } catch (error) {
 *   throw hostFree(error, 'notes.md', '/notes.md'); // its message names '/notes.md', never '/srv/workspace'
 * }
 * ```
 */
export function hostFree(error: unknown, path: string, virtual: string): BackendError {
  if (BackendError.isInstance(error)) return error;
  const code = (error as { code?: unknown } | undefined)?.code;
  const known = typeof code === 'string' ? described[code] : undefined;
  if (known) return new BackendError(known[0], path, `"${virtual}" ${known[1]}`, { cause: error });
  const label = typeof code === 'string' ? code : 'an unexpected error';
  return new BackendError('IO_ERROR', path, `the filesystem failed on "${virtual}" (${label})`, {
    cause: error,
  });
}
