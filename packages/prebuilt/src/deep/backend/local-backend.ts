import { constants } from 'node:fs';
import { mkdir, open, readdir, realpath, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Backend, FileEntry } from './backend.js';
import { BackendError } from './backend-error.js';
import { isInside, type ResolvedPath, resolveInside } from './local-paths.js';
import { joinPath } from './virtual-path.js';

/** Options of {@link LocalBackend}. */
export interface LocalBackendOptions {
  /** The directory the agent works in; nothing outside it can be read or written. */
  readonly root: string;
  /** Files larger than this are not read (default 10 MB). */
  readonly maxFileBytes?: number;
  /** `files()` stops after this many files (default 10 000). */
  readonly maxFiles?: number;
}

/**
 * A {@link Backend} over a local directory. Virtual `/` is the root directory, so an absolute path such
 * as `/etc/passwd` names `<root>/etc/passwd`, never the host's file. Refused: `..` segments, NUL bytes,
 * backslashes, and any path that a symbolic link resolves outside the root (checked with `realpath`;
 * the final open uses `O_NOFOLLOW`, so a link swapped in after the check is not followed either).
 * `files()` does not descend into symbolic links.
 *
 * @throws BackendError `PATH_OUTSIDE_ROOT`, `NOT_FOUND`, `NOT_A_FILE`, `NOT_A_DIRECTORY`, `TOO_LARGE`.
 * @example
 * ```ts
 * const backend = new LocalBackend({ root: '/tmp/workspace' });
 * await backend.write('/notes/plan.md', '# Plan');
 * await backend.read('../secret'); // throws PATH_OUTSIDE_ROOT
 * ```
 */
export class LocalBackend implements Backend {
  readonly root: string;
  readonly #maxFileBytes: number;
  readonly #maxFiles: number;
  #realRoot: Promise<string> | undefined;

  constructor(options: LocalBackendOptions) {
    this.root = options.root;
    this.#maxFileBytes = options.maxFileBytes ?? 10 * 1024 * 1024;
    this.#maxFiles = options.maxFiles ?? 10_000;
  }

  async ls(path: string): Promise<FileEntry[]> {
    const dir = await this.#existing(path);
    if (!(await stat(dir.host)).isDirectory())
      throw new BackendError('NOT_A_DIRECTORY', path, `"${dir.virtual}" is a file, not a directory`);
    const realRoot = await this.#root();
    const entries: FileEntry[] = [];
    for (const dirent of await readdir(dir.host, { withFileTypes: true })) {
      const host = join(dir.host, dirent.name);
      const target = dirent.isSymbolicLink() ? await realpath(host).catch(() => undefined) : host;
      if (target === undefined || !isInside(realRoot, target)) continue;
      const info = await stat(target);
      const entryPath = joinPath(dir.virtual, dirent.name);
      if (info.isDirectory()) entries.push({ path: entryPath, kind: 'directory' });
      else if (info.isFile()) entries.push({ path: entryPath, kind: 'file', size: info.size });
    }
    return entries.sort((a, b) => a.path.localeCompare(b.path));
  }

  async read(path: string): Promise<string> {
    const file = await this.#existing(path);
    const info = await stat(file.host);
    if (info.isDirectory())
      throw new BackendError('NOT_A_FILE', path, `"${file.virtual}" is a directory; use ls to list it`);
    if (info.size > this.#maxFileBytes)
      throw new BackendError(
        'TOO_LARGE',
        path,
        `"${file.virtual}" has ${info.size} bytes, more than ${this.#maxFileBytes}`,
      );
    const handle = await open(file.host, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      return await handle.readFile({ encoding: 'utf8' });
    } finally {
      await handle.close();
    }
  }

  async write(path: string, content: string): Promise<void> {
    const file = await resolveInside(await this.#root(), path);
    if (file.virtual === '/' || (file.exists && (await stat(file.host)).isDirectory()))
      throw new BackendError(
        'NOT_A_FILE',
        path,
        `"${file.virtual}" is a directory; write to a file path inside it`,
      );
    try {
      await mkdir(dirname(file.host), { recursive: true });
    } catch (error) {
      throw new BackendError(
        'NOT_A_DIRECTORY',
        path,
        `cannot create the folders of "${file.virtual}": a parent is a file`,
        {
          cause: error,
        },
      );
    }
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW;
    const handle = await open(file.host, flags, 0o644);
    try {
      await handle.writeFile(content, { encoding: 'utf8' });
    } finally {
      await handle.close();
    }
  }

  async files(path: string): Promise<string[]> {
    const dir = await this.#existing(path);
    if (!(await stat(dir.host)).isDirectory()) return [dir.virtual];
    const out: string[] = [];
    const walk = async (host: string, virtual: string): Promise<void> => {
      for (const dirent of await readdir(host, { withFileTypes: true })) {
        if (out.length >= this.#maxFiles) return;
        if (dirent.isFile()) out.push(joinPath(virtual, dirent.name));
        else if (dirent.isDirectory()) await walk(join(host, dirent.name), joinPath(virtual, dirent.name));
      }
    };
    await walk(dir.host, dir.virtual);
    return out.sort();
  }

  #root(): Promise<string> {
    this.#realRoot ??= realpath(this.root).catch((error: unknown) => {
      this.#realRoot = undefined;
      throw new BackendError('NOT_FOUND', '/', `the workspace root "${this.root}" does not exist`, {
        cause: error,
      });
    });
    return this.#realRoot;
  }

  async #existing(path: string): Promise<ResolvedPath> {
    const resolved = await resolveInside(await this.#root(), path);
    if (!resolved.exists)
      throw new BackendError(
        'NOT_FOUND',
        path,
        `"${resolved.virtual}" does not exist; use ls or glob to find files`,
      );
    return resolved;
  }
}
