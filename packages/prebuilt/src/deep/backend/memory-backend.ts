import type { Backend, BackendCallOptions, FileEntry } from './backend.js';
import { BackendError } from './backend-error.js';
import { joinPath, normalizePath } from './virtual-path.js';

/** Memory operations finish at once; one whose signal already fired is refused with `ABORTED`. */
function checkSignal(path: string, options: BackendCallOptions | undefined): void {
  if (options?.signal?.aborted)
    throw new BackendError('ABORTED', path, `the operation on "${normalizePath(path)}" was cancelled`, {
      cause: options.signal.reason,
    });
}

/**
 * A {@link Backend} held in memory: files in a map, directories implied by the paths of files. For
 * tests, demos, and agents whose files are scratch space. Snapshot it with {@link MemoryBackend.toJSON}.
 *
 * @example
 * ```ts
 * const backend = new MemoryBackend({ '/README.md': '# Demo' });
 * await backend.write('notes/todo.txt', 'ship it');
 * backend.toJSON(); // { '/README.md': '# Demo', '/notes/todo.txt': 'ship it' }
 * ```
 */
export class MemoryBackend implements Backend {
  readonly #files = new Map<string, string>();

  constructor(initial: Readonly<Record<string, string>> = {}) {
    for (const [path, content] of Object.entries(initial)) this.#files.set(normalizePath(path), content);
  }

  async ls(path: string, options?: BackendCallOptions): Promise<FileEntry[]> {
    const directory = normalizePath(path);
    checkSignal(path, options);
    if (this.#files.has(directory))
      throw new BackendError('NOT_A_DIRECTORY', path, `"${directory}" is a file, not a directory`);
    const prefix = directory === '/' ? '/' : `${directory}/`;
    const entries = new Map<string, FileEntry>();
    for (const [file, content] of this.#files) {
      if (!file.startsWith(prefix)) continue;
      const [name, ...deeper] = file.slice(prefix.length).split('/');
      const child = joinPath(directory, name as string);
      entries.set(
        child,
        deeper.length > 0
          ? { path: child, kind: 'directory' }
          : { path: child, kind: 'file', size: Buffer.byteLength(content) },
      );
    }
    if (entries.size === 0 && directory !== '/')
      throw new BackendError('NOT_FOUND', path, `directory "${directory}" does not exist`);
    return [...entries.values()].sort((a, b) => a.path.localeCompare(b.path));
  }

  async read(path: string, options?: BackendCallOptions): Promise<string> {
    const file = normalizePath(path);
    checkSignal(path, options);
    const content = this.#files.get(file);
    if (content !== undefined) return content;
    const isDirectory = [...this.#files.keys()].some((key) => key.startsWith(`${file}/`));
    if (isDirectory)
      throw new BackendError('NOT_A_FILE', path, `"${file}" is a directory; use ls to list it`);
    throw new BackendError('NOT_FOUND', path, `file "${file}" does not exist; use ls or glob to find files`);
  }

  async write(path: string, content: string, options?: BackendCallOptions): Promise<void> {
    const file = normalizePath(path);
    checkSignal(path, options);
    if (file === '/' || [...this.#files.keys()].some((key) => key.startsWith(`${file}/`)))
      throw new BackendError('NOT_A_FILE', path, `"${file}" is a directory; write to a file path inside it`);
    const parts = file.split('/');
    for (let i = 2; i < parts.length; i++) {
      const parent = parts.slice(0, i).join('/');
      if (this.#files.has(parent))
        throw new BackendError(
          'NOT_A_DIRECTORY',
          path,
          `"${parent}" is a file, so "${file}" cannot be created`,
        );
    }
    this.#files.set(file, content);
  }

  async files(path: string, options?: BackendCallOptions): Promise<string[]> {
    const directory = normalizePath(path);
    checkSignal(path, options);
    const prefix = directory === '/' ? '/' : `${directory}/`;
    return [...this.#files.keys()].filter((file) => file.startsWith(prefix)).sort();
  }

  /** Every file and its content, as a plain object. */
  toJSON(): Record<string, string> {
    return Object.fromEntries([...this.#files].sort(([a], [b]) => a.localeCompare(b)));
  }
}
