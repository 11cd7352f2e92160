import { constants, type Stats } from 'node:fs';
import { type FileHandle, lstat, mkdir, open, readlink, stat } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { BackendError } from './backend-error.js';

const DIRECTORY_FLAGS =
  constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
/** Symbolic links followed by one walk before it gives up (Linux's own limit). */
const MAX_LINKS = 40;

/** A directory opened beneath the root: its handle and its segments from the root. */
export interface BeneathDirectory {
  readonly handle: FileHandle;
  readonly segments: readonly string[];
}

/** The path being worked on, as the caller spelled it and normalized, and the operation's signal. */
export interface WalkContext {
  readonly path: string;
  readonly virtual: string;
  readonly signal: AbortSignal;
}

/** What a child of a directory turned out to be (see {@link Beneath.openChild}). */
export type Child =
  | { readonly kind: 'directory'; readonly directory: BeneathDirectory }
  | { readonly kind: 'link' }
  | { readonly kind: 'other'; readonly stats: Stats };

/** Returned by the last step of a walk when the last component is a symbolic link to follow. */
export const FOLLOW: unique symbol = Symbol('follow');

/** The last step of a walk: gets the directory holding the last component (`name` is absent for the root). */
export type LastStep<T> = (
  directory: BeneathDirectory,
  name: string | undefined,
) => Promise<T | typeof FOLLOW>;

const isCode = (error: unknown, ...codes: string[]) =>
  codes.includes((error as { code?: unknown } | undefined)?.code as string);

/**
 * Resolves paths beneath a root directory one component at a time, never letting the kernel follow a
 * symbolic link: each directory is opened relative to the handle of its parent (through
 * `/proc/self/fd/<fd>/<name>`, Node's stand-in for `openat`) with `O_NOFOLLOW`, so a directory swapped
 * for a link between two steps is seen as a link, never entered. Links are read with `readlink` and
 * resolved lexically against the root; one that leaves it is refused. Without `/proc` (macOS) the
 * same walk uses host paths, which refuses every link that points out but cannot close the race.
 */
export class Beneath {
  readonly #realRoot: string;
  readonly #spellings: readonly string[];
  readonly #viaProc: boolean;

  private constructor(realRoot: string, spellings: readonly string[], viaProc: boolean) {
    this.#realRoot = realRoot;
    this.#spellings = spellings;
    this.#viaProc = viaProc;
  }

  /** Opens a walker for `root` (a trusted directory: its own path is resolved once, links included). */
  static async open(realRoot: string, configuredRoot: string): Promise<Beneath> {
    const handle = await open(realRoot, DIRECTORY_FLAGS & ~constants.O_NOFOLLOW);
    try {
      const own = await handle.stat();
      const viaProc = await stat(`/proc/self/fd/${handle.fd}`).then(
        (seen) => seen.ino === own.ino && seen.dev === own.dev,
        () => false,
      );
      const spellings = [...new Set([realRoot, posix.resolve(configuredRoot)])];
      return new Beneath(realRoot, spellings, viaProc);
    } finally {
      await handle.close();
    }
  }

  /** True when walks are race-free (`/proc/self/fd` is available). */
  get raceFree(): boolean {
    return this.#viaProc;
  }

  /** The path naming `name` inside `directory` without re-resolving `directory`'s own path. */
  childPath(directory: BeneathDirectory, name: string): string {
    return this.#viaProc
      ? `/proc/self/fd/${directory.handle.fd}/${name}`
      : join(this.#realRoot, ...directory.segments, name);
  }

  /** The path naming `directory` itself (for `readdir`). */
  directoryPath(directory: BeneathDirectory): string {
    return this.#viaProc
      ? `/proc/self/fd/${directory.handle.fd}`
      : join(this.#realRoot, ...directory.segments);
  }

  /**
   * Opens the child `name` of `directory` as a directory, without following a link. With `create`, a
   * missing directory is made first. A missing child throws `NOT_FOUND`.
   */
  async openChild(
    context: WalkContext,
    directory: BeneathDirectory,
    options: { readonly name: string; readonly create: boolean },
  ): Promise<Child> {
    const { name, create } = options;
    const path = this.childPath(directory, name);
    for (let attempt = 0; attempt < MAX_LINKS; attempt++) {
      context.signal.throwIfAborted();
      try {
        const handle = await open(path, DIRECTORY_FLAGS);
        return { kind: 'directory', directory: { handle, segments: [...directory.segments, name] } };
      } catch (error) {
        if (isCode(error, 'ENOENT') && create) {
          await mkdir(path, 0o755).catch((made: unknown) =>
            isCode(made, 'EEXIST') ? undefined : Promise.reject(made),
          );
          continue;
        }
        if (isCode(error, 'ENOENT'))
          throw new BackendError(
            'NOT_FOUND',
            context.path,
            `"${context.virtual}" does not exist; use ls or glob to find files`,
            { cause: error },
          );
        if (!isCode(error, 'ENOTDIR', 'ELOOP')) throw error;
      }
      const stats = await lstat(path).catch((error: unknown) =>
        isCode(error, 'ENOENT') ? undefined : Promise.reject(error),
      );
      if (stats === undefined) continue; // removed between the two calls: look again
      return stats.isSymbolicLink() ? { kind: 'link' } : { kind: 'other', stats };
    }
    throw new BackendError(
      'IO_ERROR',
      context.path,
      `"${context.virtual}" kept changing while it was opened; try again`,
    );
  }

  /**
   * Walks `segments` from the root: opens each directory beneath its parent (making missing ones with
   * `create`), follows links that stay inside the root, and hands the directory holding the last
   * component to `last`, which opens it with `O_NOFOLLOW` and returns {@link FOLLOW} if it is a link.
   *
   * @throws BackendError `PATH_OUTSIDE_ROOT` for a link out of the root, `TOO_MANY_LINKS`, `NOT_FOUND`,
   * `NOT_A_DIRECTORY`.
   */
  async walk<T>(
    context: WalkContext,
    segments: readonly string[],
    options: { readonly create: boolean },
    last: LastStep<T>,
  ): Promise<T> {
    let pending = [...segments];
    let links = 0;
    let directory = await this.#openRoot();
    try {
      for (;;) {
        context.signal.throwIfAborted();
        const [name, ...rest] = pending;
        if (name === undefined) return (await last(directory, undefined)) as T;
        if (rest.length === 0) {
          const result = await last(directory, name);
          if (result !== FOLLOW) return result;
        } else {
          const child = await this.openChild(context, directory, { name, create: options.create });
          if (child.kind === 'directory') {
            await directory.handle.close();
            directory = child.directory;
            pending = rest;
            continue;
          }
          if (child.kind === 'other')
            throw new BackendError(
              'NOT_A_DIRECTORY',
              context.path,
              `a parent of "${context.virtual}" is a file, not a folder`,
            );
        }
        if (++links > MAX_LINKS)
          throw new BackendError(
            'TOO_MANY_LINKS',
            context.path,
            `"${context.virtual}" goes through too many symbolic links`,
          );
        const target = await readlink(this.childPath(directory, name)).catch((error: unknown) =>
          isCode(error, 'EINVAL', 'ENOENT') ? undefined : Promise.reject(error),
        );
        if (target === undefined) continue; // no longer a link: take the step again
        pending = [...this.#resolveLink(context, directory.segments, target), ...rest];
        await directory.handle.close();
        directory = await this.#openRoot();
      }
    } finally {
      await directory.handle.close();
    }
  }

  /** Resolves a link's target lexically to segments from the root; refuses a target outside it. */
  #resolveLink(context: WalkContext, from: readonly string[], target: string): string[] {
    let relative: string | undefined = `${from.join('/')}/${target}`;
    if (target.startsWith('/')) {
      const absolute = posix.normalize(target);
      const root = this.#spellings.find(
        (spelling) => absolute === spelling || absolute.startsWith(`${spelling}/`),
      );
      relative = root === undefined ? undefined : absolute.slice(root.length);
    }
    const out: string[] = [];
    for (const part of (relative ?? '..').split('/')) {
      if (part === '' || part === '.') continue;
      if (part !== '..') out.push(part);
      else if (out.pop() === undefined)
        throw new BackendError(
          'PATH_OUTSIDE_ROOT',
          context.path,
          `refused "${context.virtual}": it resolves outside the workspace root through a symbolic link`,
        );
    }
    return out;
  }

  async #openRoot(): Promise<BeneathDirectory> {
    return { handle: await open(this.#realRoot, DIRECTORY_FLAGS & ~constants.O_NOFOLLOW), segments: [] };
  }
}
