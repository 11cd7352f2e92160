import { BackendError } from './backend-error.js';

/**
 * Normalizes a virtual path to `/a/b` form: relative paths start at the root, `.` and empty segments
 * are dropped. `..` segments (even ones that would stay inside), NUL bytes and backslashes are refused,
 * so no spelling of a path can leave the root.
 *
 * @throws BackendError `PATH_OUTSIDE_ROOT` for `..`; `INVALID_PATH` for NUL bytes or backslashes.
 * @example
 * ```ts
 * normalizePath('src/./index.ts'); // '/src/index.ts'
 * normalizePath('../etc/passwd'); // throws PATH_OUTSIDE_ROOT
 * ```
 */
export function normalizePath(path: string): string {
  if (path.includes('\0') || path.includes('\\')) {
    throw new BackendError(
      'INVALID_PATH',
      path,
      `invalid path "${path}": NUL bytes and backslashes are not allowed`,
    );
  }
  const segments = path.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) {
    throw new BackendError(
      'PATH_OUTSIDE_ROOT',
      path,
      `refused "${path}": ".." is not allowed; paths start at the workspace root "/" (e.g. "/src/index.ts")`,
    );
  }
  return `/${segments.join('/')}`;
}

/**
 * The segments of a normalized virtual path (`/` has none).
 *
 * @example
 * ```ts
 * segmentsOf('/a/b'); // ['a', 'b']
 * ```
 */
export function segmentsOf(path: string): string[] {
  return normalizePath(path).split('/').filter(Boolean);
}

/**
 * Joins a directory and a name into a virtual path.
 *
 * @example
 * ```ts
 * joinPath('/', 'a.txt'); // '/a.txt'
 * ```
 */
export function joinPath(directory: string, name: string): string {
  return directory === '/' ? `/${name}` : `${directory}/${name}`;
}
