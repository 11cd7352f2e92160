import { type JsonValue, type Store, WeftError } from '@weft/compose';
import { AdkError } from '../errors/adk-error.js';
import { memoryLabel } from '../memory/memory-keys.js';
import type { SessionKey } from '../session/session.js';
import { artifactOf, checkArtifactName, isUserArtifact, NameLocks } from './artifact-input.js';
import type { Artifact, ArtifactInput, ArtifactService } from './artifact-service.js';

const ROOT = 'artifacts';
/** The scope label of user artifacts: an encoded session id never starts with `%u`. */
const USER_SCOPE = '%u';
const PAGE = 100;
/** Versions another writer may take from under one save before it gives up. */
const MAX_ATTEMPTS = 1000;

/**
 * An {@link ArtifactService} on a compose `Store`, so artifacts live wherever the store does (memory,
 * SQLite, PostgreSQL). Each version is one document (bytes as base64) under
 * `['artifacts', app, user, session or the user scope, name]`, keyed by its zero-padded number. A save
 * claims its number with the store's insert-if-absent (`put(..., { ifAbsent: true })`), so writers in
 * several processes (or over several connections) saving one name at once get distinct versions and
 * none is overwritten; inside a process saves of one name are also serialized.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel
 * const artifacts = new StoreArtifactService({ store: new MemoryStore() }); // or a SqliteStore / PostgresStore
 * const agent = new ChatModelAgent({ name: 'analyst', model, tools: [loadArtifactsTool()] });
 * const runner = new Runner({ agent, sessionService: new MemorySessionService(), artifactService: artifacts });
 * ```
 */
export class StoreArtifactService implements ArtifactService {
  readonly #store: Store;
  readonly #now: () => number;
  readonly #locks = new NameLocks();

  constructor(options: { readonly store: Store; readonly now?: () => number }) {
    this.#store = options.store;
    this.#now = options.now ?? Date.now;
  }

  async save(key: SessionKey, name: string, input: ArtifactInput): Promise<number> {
    checkArtifactName(name, 'save');
    const namespace = namespaceOf(key, name);
    return this.#locks.run(namespace.join('.'), async () => {
      // The next number is claimed with an insert-if-absent: a writer elsewhere (another process or
      // connection) that took it first makes this one read the versions again and take the next.
      for (let attempt = 1; ; attempt++) {
        const versions = await this.versions(key, name);
        const version = versions.length === 0 ? 0 : (versions.at(-1) as number) + 1;
        try {
          await this.#store.put(namespace, keyOf(version), this.#document(name, version, input), {
            index: false,
            ifAbsent: true,
          });
          return version;
        } catch (error) {
          // Recognised by its code, as a store in another package copy (or a custom store) throws it.
          if (!(WeftError.isInstance(error) && error.code === 'STORE_CONFLICT')) throw error;
          if (attempt >= MAX_ATTEMPTS) {
            throw new AdkError(
              'INVALID_ARGUMENT',
              `artifact "${name}": ${MAX_ATTEMPTS} versions in a row were taken by other writers while saving; try again`,
              { cause: error },
            );
          }
        }
      }
    });
  }

  #document(name: string, version: number, input: ArtifactInput): Record<string, JsonValue> {
    const artifact = artifactOf(name, version, input, this.#now());
    return {
      name,
      version,
      mimeType: artifact.mimeType,
      size: artifact.size,
      createdAt: artifact.createdAt,
      data: Buffer.from(artifact.data).toString('base64'),
      ...(artifact.metadata ? { metadata: artifact.metadata as Record<string, JsonValue> } : {}),
    };
  }

  async load(
    key: SessionKey,
    name: string,
    options: { readonly version?: number } = {},
  ): Promise<Artifact | undefined> {
    checkArtifactName(name, 'load');
    const version = options.version ?? (await this.versions(key, name)).at(-1);
    if (version === undefined) return undefined;
    const item = await this.#store.get(namespaceOf(key, name), keyOf(version));
    if (!item) return undefined;
    const value = item.value;
    const data = new Uint8Array(Buffer.from(String(value.data), 'base64'));
    return {
      name,
      version,
      data,
      mimeType: String(value.mimeType),
      size: data.byteLength,
      createdAt: Number(value.createdAt),
      ...(value.metadata ? { metadata: value.metadata as Record<string, JsonValue> } : {}),
    };
  }

  async list(key: SessionKey): Promise<string[]> {
    const names = new Set<string>();
    for (const scope of [sessionScope(key), USER_SCOPE]) {
      const prefix = [ROOT, memoryLabel(key.appName), memoryLabel(key.userId), scope];
      const namespaces = await this.#store.list(prefix, { maxDepth: prefix.length + 1, limit: 100_000 });
      for (const namespace of namespaces) {
        const label = namespace[prefix.length];
        if (namespace.length === prefix.length + 1 && label !== undefined) names.add(nameOf(label));
      }
    }
    return [...names].sort();
  }

  async versions(key: SessionKey, name: string): Promise<number[]> {
    checkArtifactName(name, 'versions');
    const namespace = namespaceOf(key, name);
    const versions: number[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = await this.#store.search(namespace, { limit: PAGE, offset });
      for (const item of page)
        if (item.namespace.length === namespace.length) versions.push(Number(item.key));
      if (page.length < PAGE) break;
    }
    return versions.sort((a, b) => a - b);
  }

  async delete(key: SessionKey, name: string): Promise<void> {
    checkArtifactName(name, 'delete');
    const namespace = namespaceOf(key, name);
    await this.#locks.run(namespace.join('.'), async () => {
      for (const version of await this.versions(key, name))
        await this.#store.delete(namespace, keyOf(version));
    });
  }
}

function sessionScope(key: SessionKey): string {
  return `s${memoryLabel(key.sessionId)}`;
}

function namespaceOf(key: SessionKey, name: string): string[] {
  const scope = isUserArtifact(name) ? USER_SCOPE : sessionScope(key);
  return [ROOT, memoryLabel(key.appName), memoryLabel(key.userId), scope, memoryLabel(name)];
}

function nameOf(label: string): string {
  return label === '%' ? '' : label.replaceAll('%2E', '.').replaceAll('%25', '%');
}

function keyOf(version: number): string {
  return String(version).padStart(10, '0');
}
