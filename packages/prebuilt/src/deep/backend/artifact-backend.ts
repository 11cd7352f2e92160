import { type ArtifactService, type SessionKey, USER_ARTIFACT_PREFIX } from '@weft/adk';
import type { Backend, BackendCallOptions, FileEntry } from './backend.js';
import { BackendError } from './backend-error.js';
import { joinPath, normalizePath } from './virtual-path.js';

/**
 * Options of {@link ArtifactBackend}.
 *
 * @example
 * ```ts
 * const artifacts = new StoreArtifactService({ store: new MemoryStore() });
 * const options: ArtifactBackendOptions = { artifacts, session: { appName: 'docs', userId: 'u1', sessionId: 's1' } };
 * const backend = new ArtifactBackend(options);
 * ```
 */
export interface ArtifactBackendOptions {
  readonly artifacts: ArtifactService;
  /** Whose files: the session's artifacts, or with `scope: 'user'` the user's (shared by their sessions). */
  readonly session: SessionKey;
  /** `session` (default) or `user` (names stored as `user:/path`). */
  readonly scope?: 'session' | 'user';
}

/**
 * A deep agent's files kept as artifacts: each file is an artifact named by its absolute path, every
 * write a new version (so earlier versions stay loadable with the artifact service), directories
 * implied by the paths. Use it for files that must outlive the process and show on the session (e.g.
 * in the playground), over any `ArtifactService` — memory, a folder, SQLite or PostgreSQL.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel
 * const artifacts = new StoreArtifactService({ store: new MemoryStore() }); // or a SqliteStore / PostgresStore
 * const backend = new ArtifactBackend({ artifacts, session: { appName: 'docs', userId: 'u1', sessionId: 's1' } });
 * await backend.write('/report.md', '# Q3');
 * await backend.read('/report.md'); // '# Q3', stored as an artifact of session s1
 * const agent = createDeepAgent({ model, instruction: 'You write reports.', backend });
 * ```
 */
export class ArtifactBackend implements Backend {
  readonly #artifacts: ArtifactService;
  readonly #session: SessionKey;
  readonly #prefix: string;

  constructor(options: ArtifactBackendOptions) {
    this.#artifacts = options.artifacts;
    this.#session = options.session;
    this.#prefix = options.scope === 'user' ? USER_ARTIFACT_PREFIX : '';
  }

  async ls(path: string, options?: BackendCallOptions): Promise<FileEntry[]> {
    const directory = normalizePath(path);
    const all = await this.#paths(path, options);
    if (all.includes(directory))
      throw new BackendError('NOT_A_DIRECTORY', path, `"${directory}" is a file, not a directory`);
    const prefix = directory === '/' ? '/' : `${directory}/`;
    const entries = new Map<string, FileEntry>();
    for (const file of all) {
      if (!file.startsWith(prefix)) continue;
      const [name, ...deeper] = file.slice(prefix.length).split('/');
      const child = joinPath(directory, name as string);
      if (deeper.length > 0) entries.set(child, { path: child, kind: 'directory' });
      else {
        const artifact = await this.#artifacts.load(this.#session, this.#prefix + child);
        entries.set(child, { path: child, kind: 'file', size: artifact?.size ?? 0 });
      }
    }
    if (entries.size === 0 && directory !== '/')
      throw new BackendError('NOT_FOUND', path, `directory "${directory}" does not exist`);
    return [...entries.values()].sort((a, b) => a.path.localeCompare(b.path));
  }

  async read(path: string, options?: BackendCallOptions): Promise<string> {
    const file = normalizePath(path);
    checkSignal(path, options);
    const artifact = await this.#artifacts.load(this.#session, this.#prefix + file);
    if (artifact) return new TextDecoder().decode(artifact.data);
    if ((await this.#paths(path, options)).some((p) => p.startsWith(`${file}/`)))
      throw new BackendError('NOT_A_FILE', path, `"${file}" is a directory; use ls to list it`);
    throw new BackendError('NOT_FOUND', path, `file "${file}" does not exist; use ls or glob to find files`);
  }

  async write(path: string, content: string, options?: BackendCallOptions): Promise<void> {
    const file = normalizePath(path);
    const all = await this.#paths(path, options);
    if (file === '/' || all.some((p) => p.startsWith(`${file}/`)))
      throw new BackendError('NOT_A_FILE', path, `"${file}" is a directory; write to a file path inside it`);
    const parts = file.split('/');
    for (let i = 2; i < parts.length; i++) {
      const parent = parts.slice(0, i).join('/');
      if (all.includes(parent))
        throw new BackendError(
          'NOT_A_DIRECTORY',
          path,
          `"${parent}" is a file, so "${file}" cannot be created`,
        );
    }
    await this.#artifacts.save(this.#session, this.#prefix + file, { data: content, mimeType: 'text/plain' });
  }

  async files(path: string, options?: BackendCallOptions): Promise<string[]> {
    const directory = normalizePath(path);
    const prefix = directory === '/' ? '/' : `${directory}/`;
    return (await this.#paths(path, options)).filter((file) => file.startsWith(prefix)).sort();
  }

  /** Paths of this backend's files (artifact names of its scope that are absolute paths). */
  async #paths(path: string, options: BackendCallOptions | undefined): Promise<string[]> {
    checkSignal(path, options);
    const names = await this.#artifacts.list(this.#session);
    return names
      .filter((name) =>
        this.#prefix === '' ? !name.startsWith(USER_ARTIFACT_PREFIX) : name.startsWith(this.#prefix),
      )
      .map((name) => name.slice(this.#prefix.length))
      .filter((name) => name.startsWith('/'));
  }
}

function checkSignal(path: string, options: BackendCallOptions | undefined): void {
  if (options?.signal?.aborted)
    throw new BackendError('ABORTED', path, `the operation on "${normalizePath(path)}" was cancelled`, {
      cause: options.signal.reason,
    });
}
