import { lstat, realpath } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { BackendError } from './backend-error.js';
import { normalizePath } from './virtual-path.js';

/** A virtual path resolved to a real path on disk, known to be inside the root. */
export interface ResolvedPath {
  readonly virtual: string;
  /** The real path (symlinks resolved as far as the path exists). */
  readonly host: string;
  readonly exists: boolean;
}

/**
 * True when `path` is `root` or inside it (both real paths).
 *
 * @example
 * ```ts
 * isInside('/srv/ws', '/srv/ws/a.txt'); // true
 * isInside('/srv/ws', '/srv/ws-other/a.txt'); // false
 * ```
 */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep));
}

function missing(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function escapeError(path: string, virtual: string): BackendError {
  return new BackendError(
    'PATH_OUTSIDE_ROOT',
    path,
    `refused "${virtual}": it resolves outside the workspace root through a symbolic link`,
  );
}

/**
 * Resolves a virtual path under a real root with `realpath`: the path must resolve inside the root, and
 * so must the nearest existing ancestor of a path that does not exist yet; a dangling symbolic link is
 * refused (writing through it could create a file anywhere).
 *
 * @throws BackendError `PATH_OUTSIDE_ROOT` for `..` or a symbolic link that leaves the root.
 * @example
 * ```ts
 * const { host, exists } = await resolveInside(await realpath(root), 'src/index.ts');
 * ```
 */
export async function resolveInside(realRoot: string, path: string): Promise<ResolvedPath> {
  const virtual = normalizePath(path);
  const segments = virtual.split('/').filter(Boolean);
  try {
    const host = await realpath(join(realRoot, ...segments));
    if (!isInside(realRoot, host)) throw escapeError(path, virtual);
    return { virtual, host, exists: true };
  } catch (error) {
    if (!missing(error)) throw error;
  }
  for (let i = segments.length - 1; i >= 0; i--) {
    let ancestor: string;
    try {
      ancestor = await realpath(join(realRoot, ...segments.slice(0, i)));
    } catch (error) {
      if (missing(error)) continue;
      throw error;
    }
    if (!isInside(realRoot, ancestor)) throw escapeError(path, virtual);
    const first = join(ancestor, segments[i] as string);
    const dangling = await lstat(first).then(
      () => true,
      (error: unknown) => (missing(error) ? false : Promise.reject(error)),
    );
    if (dangling) throw escapeError(path, virtual);
    return { virtual, host: join(ancestor, ...segments.slice(i)), exists: false };
  }
  throw new BackendError('NOT_FOUND', path, `the workspace root "${realRoot}" does not exist`);
}
