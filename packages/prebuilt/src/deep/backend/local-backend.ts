import { constants } from 'node:fs';
import { type FileHandle, lstat, open, readdir, realpath } from 'node:fs/promises';
import { AdkError } from '@weft/adk';
import type { Backend, BackendCallOptions, FileEntry } from './backend.js';
import { BackendError } from './backend-error.js';
import { Beneath, type BeneathDirectory, FOLLOW, type WalkContext } from './beneath.js';
import { bounded, hostFree } from './bounded-operation.js';
import { joinPath, normalizePath } from './virtual-path.js';

/** Options of {@link LocalBackend}. */
export interface LocalBackendOptions {
  /** The directory the agent works in; nothing outside it can be read or written. */
  readonly root: string;
  /** Files larger than this are not read (default 10 MB). */
  readonly maxFileBytes?: number;
  /** `files()` stops after this many files (default 10 000). */
  readonly maxFiles?: number;
  /** Every operation fails with reason `TIMEOUT` after this many milliseconds (default 30 000; `Infinity`: never). */
  readonly timeoutMs?: number;
}

const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const WRITE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK;

const isCode = (error: unknown, code: string) => (error as { code?: unknown } | undefined)?.code === code;

/**
 * A {@link Backend} over a local directory. Virtual `/` is the root directory, so an absolute path such
 * as `/etc/passwd` names `<root>/etc/passwd`, never the host's file. Every path is resolved component
 * by component beneath the root without letting the kernel follow a link (see the README's "Sandbox
 * guarantees"): links inside the root work, links out of it are refused, and swapping a folder for a
 * link while the agent works cannot redirect a read or write. Only regular files are read or written
 * (a FIFO or device is refused, never opened in blocking mode); a write to a file with several hard
 * links is refused. Each operation honours the caller's abort signal and `timeoutMs`. Error messages
 * name virtual paths only, never the host path of the root. `files()` does not descend into links.
 *
 * @throws BackendError `PATH_OUTSIDE_ROOT`, `NOT_FOUND`, `NOT_A_FILE`, `NOT_A_DIRECTORY`,
 * `NOT_A_REGULAR_FILE`, `HARD_LINKED`, `TOO_LARGE`, `TOO_MANY_LINKS`, `PERMISSION_DENIED`, `IO_ERROR`,
 * `ABORTED`, `TIMEOUT`.
 * @example
 * ```ts
 * const backend = new LocalBackend({ root: '/tmp/workspace', timeoutMs: 10_000 });
 * await backend.write('/notes/plan.md', '# Plan', { signal: AbortSignal.timeout(5_000) });
 * await backend.read('../secret'); // throws PATH_OUTSIDE_ROOT
 * ```
 */
export class LocalBackend implements Backend {
  readonly root: string;
  readonly #maxFileBytes: number;
  readonly #maxFiles: number;
  readonly #timeoutMs: number;
  #beneath: Promise<Beneath> | undefined;

  constructor(options: LocalBackendOptions) {
    this.root = options.root;
    this.#maxFileBytes = options.maxFileBytes ?? 10 * 1024 * 1024;
    this.#maxFiles = options.maxFiles ?? 10_000;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    if (!(this.#timeoutMs > 0))
      throw new AdkError(
        'INVALID_ARGUMENT',
        `LocalBackend: timeoutMs must be a positive number, got ${this.#timeoutMs}`,
      );
  }

  ls(path: string, options?: BackendCallOptions): Promise<FileEntry[]> {
    return this.#run(path, options, async (beneath, context) =>
      beneath.walk(context, segments(context), { create: false }, async (parent, name) => {
        if (name === undefined) return this.#list(beneath, context, parent);
        const child = await beneath.openChild(context, parent, { name, create: false });
        if (child.kind === 'link') return FOLLOW;
        if (child.kind === 'other')
          throw new BackendError('NOT_A_DIRECTORY', path, `"${context.virtual}" is a file, not a directory`);
        try {
          return await this.#list(beneath, context, child.directory);
        } finally {
          await child.directory.handle.close();
        }
      }),
    );
  }

  read(path: string, options?: BackendCallOptions): Promise<string> {
    return this.#run(path, options, async (beneath, context) =>
      beneath.walk(context, segments(context), { create: false }, async (parent, name) => {
        if (name === undefined) throw notAFile(context, 'use ls to list it');
        const handle = await openFile(beneath.childPath(parent, name), READ_FLAGS).catch(missingIs(context));
        if (handle === FOLLOW) return FOLLOW;
        try {
          const info = await handle.stat();
          if (info.isDirectory()) throw notAFile(context, 'use ls to list it');
          if (!info.isFile()) throw notRegular(context);
          if (info.size > this.#maxFileBytes)
            throw new BackendError(
              'TOO_LARGE',
              path,
              `"${context.virtual}" has ${info.size} bytes, more than ${this.#maxFileBytes}`,
            );
          return await handle.readFile({ encoding: 'utf8', signal: context.signal });
        } finally {
          await handle.close();
        }
      }),
    );
  }

  write(path: string, content: string, options?: BackendCallOptions): Promise<void> {
    return this.#run(path, options, async (beneath, context) =>
      beneath.walk(context, segments(context), { create: true }, async (parent, name) => {
        if (name === undefined) throw notAFile(context, 'write to a file path inside it');
        const handle = await openFile(beneath.childPath(parent, name), WRITE_FLAGS, 0o644).catch(
          (error: unknown) => {
            if (isCode(error, 'EISDIR')) throw notAFile(context, 'write to a file path inside it');
            if (isCode(error, 'ENXIO')) throw notRegular(context); // a FIFO nobody reads
            throw error;
          },
        );
        if (handle === FOLLOW) return FOLLOW;
        try {
          const info = await handle.stat();
          if (!info.isFile()) throw notRegular(context);
          if (info.nlink > 1)
            throw new BackendError(
              'HARD_LINKED',
              path,
              `refused to write "${context.virtual}": it has ${info.nlink} hard links, so it may be a file outside the workspace; write a new file instead`,
            );
          context.signal.throwIfAborted();
          await handle.truncate(0);
          await handle.writeFile(content, { encoding: 'utf8', signal: context.signal });
          return undefined;
        } finally {
          await handle.close();
        }
      }),
    );
  }

  files(path: string, options?: BackendCallOptions): Promise<string[]> {
    return this.#run(path, options, async (beneath, context) => {
      const out: string[] = [];
      await beneath.walk(context, segments(context), { create: false }, async (parent, name) => {
        if (name === undefined)
          return this.#collect(beneath, context, { directory: parent, virtual: context.virtual, out });
        const child = await beneath.openChild(context, parent, { name, create: false });
        if (child.kind === 'link') return FOLLOW;
        if (child.kind === 'other') {
          if (!child.stats.isFile()) throw notRegular(context);
          out.push(context.virtual);
          return undefined;
        }
        try {
          return await this.#collect(beneath, context, {
            directory: child.directory,
            virtual: context.virtual,
            out,
          });
        } finally {
          await child.directory.handle.close();
        }
      });
      return out.sort();
    });
  }

  /** The entries of an open directory; links are shown only when they resolve inside the root. */
  async #list(beneath: Beneath, context: WalkContext, directory: BeneathDirectory): Promise<FileEntry[]> {
    const entries: FileEntry[] = [];
    for (const dirent of await readdir(beneath.directoryPath(directory), { withFileTypes: true })) {
      context.signal.throwIfAborted();
      const entryPath = joinPath(context.virtual, dirent.name);
      const info = dirent.isSymbolicLink()
        ? await beneath
            .walk(
              { ...context, path: entryPath, virtual: entryPath },
              [...directory.segments, dirent.name],
              { create: false },
              async (parent, name) => {
                const stats = await lstat(
                  name === undefined ? beneath.directoryPath(parent) : beneath.childPath(parent, name),
                );
                return stats.isSymbolicLink() ? FOLLOW : stats;
              },
            )
            .catch((error: unknown) =>
              BackendError.isInstance(error) || isCode(error, 'ENOENT') ? undefined : Promise.reject(error),
            )
        : await lstat(beneath.childPath(directory, dirent.name)).catch(() => undefined);
      if (info?.isDirectory()) entries.push({ path: entryPath, kind: 'directory' });
      else if (info?.isFile()) entries.push({ path: entryPath, kind: 'file', size: info.size });
    }
    return entries.sort((a, b) => a.path.localeCompare(b.path));
  }

  /** Every regular file below an open directory, not descending into links, up to `maxFiles`. */
  async #collect(
    beneath: Beneath,
    context: WalkContext,
    at: { readonly directory: BeneathDirectory; readonly virtual: string; readonly out: string[] },
  ): Promise<undefined> {
    for (const dirent of await readdir(beneath.directoryPath(at.directory), { withFileTypes: true })) {
      if (at.out.length >= this.#maxFiles) return undefined;
      context.signal.throwIfAborted();
      const virtual = joinPath(at.virtual, dirent.name);
      if (dirent.isFile()) at.out.push(virtual);
      if (!dirent.isDirectory()) continue;
      const child = await beneath
        .openChild(context, at.directory, { name: dirent.name, create: false })
        .catch(() => undefined);
      if (child?.kind !== 'directory') continue; // replaced by a link or removed meanwhile
      try {
        await this.#collect(beneath, context, { directory: child.directory, virtual, out: at.out });
      } finally {
        await child.directory.handle.close();
      }
    }
    return undefined;
  }

  async #run<T>(
    path: string,
    options: BackendCallOptions | undefined,
    operation: (beneath: Beneath, context: WalkContext) => Promise<T>,
  ): Promise<T> {
    const virtual = normalizePath(path);
    return bounded({ signal: options?.signal, timeoutMs: this.#timeoutMs, path, virtual }, async (signal) => {
      try {
        return await operation(await this.#walker(path), { path, virtual, signal });
      } catch (error) {
        throw hostFree(error, path, virtual);
      }
    });
  }

  #walker(path: string): Promise<Beneath> {
    this.#beneath ??= realpath(this.root)
      .then((real) => Beneath.open(real, this.root))
      .catch((error: unknown) => {
        this.#beneath = undefined;
        throw new BackendError(
          'NOT_FOUND',
          path,
          'the workspace root does not exist (ask the operator to create it)',
          {
            cause: error,
          },
        );
      });
    return this.#beneath;
  }
}

function segments(context: WalkContext): string[] {
  return context.virtual.split('/').filter(Boolean);
}

/** Opens a file without following a last-component link; a link yields {@link FOLLOW}. */
async function openFile(path: string, flags: number, mode?: number): Promise<FileHandle | typeof FOLLOW> {
  try {
    return await open(path, flags, mode);
  } catch (error) {
    if (isCode(error, 'ELOOP') && (await lstat(path)).isSymbolicLink()) return FOLLOW;
    throw error;
  }
}

function missingIs(context: WalkContext): (error: unknown) => never {
  return (error) => {
    if (isCode(error, 'ENOENT'))
      throw new BackendError(
        'NOT_FOUND',
        context.path,
        `"${context.virtual}" does not exist; use ls or glob to find files`,
        { cause: error },
      );
    throw error;
  };
}

function notAFile(context: WalkContext, hint: string): BackendError {
  return new BackendError('NOT_A_FILE', context.path, `"${context.virtual}" is a directory; ${hint}`);
}

function notRegular(context: WalkContext): BackendError {
  return new BackendError(
    'NOT_A_REGULAR_FILE',
    context.path,
    `"${context.virtual}" is not a regular file (a FIFO, socket or device); only regular files can be read or written`,
  );
}
