/**
 * One entry of a directory listing, with its virtual path (`/` is the backend's root).
 *
 * @example
 * ```ts
 * const entry: FileEntry = { path: '/src/index.ts', kind: 'file', size: 120 };
 * ```
 */
export interface FileEntry {
  readonly path: string;
  readonly kind: 'file' | 'directory';
  /** Bytes, for files. */
  readonly size?: number;
}

/**
 * Where a deep agent's filesystem tools read and write. Paths are virtual and POSIX-style: `/` is the
 * backend's root and relative paths start there; `..` segments are refused. Failures throw a
 * `BackendError` (the tools turn it into a message the model reads).
 *
 * @example
 * ```ts
 * const backend: Backend = new MemoryBackend({ '/notes.md': '# Notes' });
 * await backend.write('/plan.md', '1. read\n2. write');
 * console.log(await backend.files('/')); // ['/notes.md', '/plan.md']
 * ```
 */
export interface Backend {
  /** The entries directly inside a directory, sorted by path. */
  ls(path: string): Promise<FileEntry[]>;
  /** A file's text (UTF-8). */
  read(path: string): Promise<string>;
  /** Creates or replaces a file, creating missing parent directories. */
  write(path: string, content: string): Promise<void>;
  /** Every file below a directory (recursively), sorted by path. */
  files(path: string): Promise<string[]>;
}
