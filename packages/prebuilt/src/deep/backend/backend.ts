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
 * Per-call options of a {@link Backend} operation.
 *
 * @example
 * ```ts
 * const backend = new MemoryBackend({ '/notes.md': '# Notes' });
 * const options: BackendCallOptions = { signal: AbortSignal.timeout(5_000) };
 * await backend.read('/notes.md', options);
 * ```
 */
export interface BackendCallOptions {
  /** Abandons the operation (a `BackendError` with reason `ABORTED`); the tools pass the run's signal. */
  readonly signal?: AbortSignal;
}

/**
 * Where a deep agent's filesystem tools read and write. Paths are virtual and POSIX-style: `/` is the
 * backend's root and relative paths start there; `..` segments are refused. Failures throw a
 * `BackendError` (the tools turn it into a message the model reads). Every method takes an optional
 * {@link BackendCallOptions} whose `signal` the built-in tools set to the run's abort signal.
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
  ls(path: string, options?: BackendCallOptions): Promise<FileEntry[]>;
  /** A file's text (UTF-8). */
  read(path: string, options?: BackendCallOptions): Promise<string>;
  /** Creates or replaces a file, creating missing parent directories. */
  write(path: string, content: string, options?: BackendCallOptions): Promise<void>;
  /** Every file below a directory (recursively), sorted by path. */
  files(path: string, options?: BackendCallOptions): Promise<string[]>;
}
