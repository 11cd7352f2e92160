import type { JsonValue, Store, StoreSearchItem } from '@weft/compose';
import { AdkError } from '../errors/adk-error.js';
import type { Message } from '../message/message.js';
import type { Session, SessionKey } from '../session/session.js';
import { type MemoryExtractor, verbatimExtractor } from './memory-extractor.js';
import { memoryLabel, memoryNamespace, PENDING, stableId, wordsOf } from './memory-keys.js';
import type { MemoryEntry, MemoryScope, MemorySearchOptions, MemoryService } from './memory-service.js';

/**
 * Options of {@link StoreMemoryService}.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel
 * const store = new MemoryStore();
 * const options: StoreMemoryServiceOptions = { store, extractor: modelExtractor({ model }) };
 * ```
 */
export interface StoreMemoryServiceOptions {
  /** Where memories and pending extractions live (a `MemoryStore`, `SqliteStore`, `PostgresStore`...). */
  readonly store: Store;
  /** How messages become memories (default {@link verbatimExtractor}). */
  readonly extractor?: MemoryExtractor;
  /** Memories scanned by a keyword search when the store ranks no vectors (default 500, newest first). */
  readonly scanLimit?: number;
  /** Called when a background extraction fails (its record stays pending for `recover`). */
  readonly onError?: (error: unknown, key: SessionKey) => void;
  /** Milliseconds since the epoch (default `Date.now`). */
  readonly now?: () => number;
}

interface PendingValue {
  readonly appName: string;
  readonly userId: string;
  readonly sessionId: string;
  readonly messages: readonly Message[];
}

const PAGE = 100;

/**
 * A {@link MemoryService} on a long-term `Store`, so memories live wherever the store does (memory,
 * SQLite, PostgreSQL). A user's memories are documents under `['memories', app, user]` whose `text` is
 * indexed: with a store that has `Embeddings`, `search` ranks by vector similarity; without, by the share
 * of the query's words a memory holds. Ids are stable (same user, same text → same id), so extracting
 * the same messages twice keeps one copy. `enqueue` stores a pending record under
 * `['memory_pending', app]` before extracting in the background; `recover` finishes the records a dead
 * process left.
 *
 * @example
 * ```ts
 * const store = new MemoryStore({ index: { embeddings: new HashingEmbeddings(), fields: ['text'] } }); // or a SqliteStore
 * const session = await new MemorySessionService().create({ appName: 'shop', userId: 'u1' });
 * const memory = new StoreMemoryService({ store });
 * await memory.recover(); // extractions a crashed process left pending
 * await memory.addSession(session);
 * const hits = await memory.search('what does the user drink?', { appName: 'shop', userId: 'u1' });
 * ```
 */
export class StoreMemoryService implements MemoryService {
  readonly #store: Store;
  readonly #extractor: MemoryExtractor;
  readonly #options: StoreMemoryServiceOptions;
  readonly #running = new Map<string, Promise<boolean>>();

  constructor(options: StoreMemoryServiceOptions) {
    this.#store = options.store;
    this.#extractor = options.extractor ?? verbatimExtractor();
    this.#options = options;
  }

  async addSession(
    session: Session,
    options: { readonly signal?: AbortSignal } = {},
  ): Promise<MemoryEntry[]> {
    const messages = session.events.filter((e) => !e.partial && e.message).map((e) => e.message as Message);
    return this.addMessages(session, messages, options);
  }

  async addMessages(
    key: SessionKey,
    messages: readonly Message[],
    options: { readonly signal?: AbortSignal } = {},
  ): Promise<MemoryEntry[]> {
    checkScope(key, 'addMessages');
    if (messages.length === 0) return [];
    const namespace = memoryNamespace(key.appName, key.userId);
    const existing = (await this.#store.search(namespace, { limit: 50 })).map(entryOf);
    const drafts = await this.#extractor(messages, {
      key,
      existing,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const timestamp = (this.#options.now ?? Date.now)();
    const entries: MemoryEntry[] = [];
    for (const draft of drafts) {
      const text = draft.text.trim();
      if (text === '') continue;
      const id = stableId(key.appName, key.userId, text.toLowerCase());
      const entry = { id, text, author: draft.author ?? 'memory', sessionId: key.sessionId, timestamp };
      await this.#store.put(namespace, id, entry, { index: ['text'] });
      entries.push(entry);
    }
    return entries;
  }

  async search(query: string, options: MemorySearchOptions): Promise<MemoryEntry[]> {
    checkScope(options, 'search');
    const limit = options.limit ?? 5;
    const namespace = memoryNamespace(options.appName, options.userId);
    const ranked = await this.#store.search(namespace, { query, limit });
    if (ranked.some((item) => item.score !== undefined)) return ranked.map(entryOf);
    const words = significant(wordsOf(query));
    if (words.length === 0) return [];
    const candidates = await this.#store.search(namespace, { limit: this.#options.scanLimit ?? 500 });
    return candidates
      .map((item) => {
        const own = new Set(wordsOf(String(item.value.text ?? '')));
        return { ...entryOf(item), score: words.filter((w) => own.has(w)).length / words.length };
      })
      .filter((entry) => entry.score > 0)
      .sort((a, b) => b.score - a.score || b.timestamp - a.timestamp)
      .slice(0, limit);
  }

  async list(scope: MemoryScope): Promise<MemoryEntry[]> {
    checkScope(scope, 'list');
    const namespace = memoryNamespace(scope.appName, scope.userId);
    const entries: MemoryEntry[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = await this.#store.search(namespace, { limit: PAGE, offset });
      entries.push(...page.map(entryOf));
      if (page.length < PAGE) return entries;
    }
  }

  async delete(scope: MemoryScope, id: string): Promise<void> {
    checkScope(scope, 'delete');
    await this.#store.delete(memoryNamespace(scope.appName, scope.userId), id);
  }

  async enqueue(key: SessionKey, messages: readonly Message[]): Promise<void> {
    checkScope(key, 'enqueue');
    if (messages.length === 0) return;
    const ids = messages.map((m, index) => m.id ?? `#${index}`);
    const id = stableId(key.userId, key.sessionId, ...ids);
    const value = { appName: key.appName, userId: key.userId, sessionId: key.sessionId, messages };
    const namespace = [PENDING, memoryLabel(key.appName)];
    await this.#store.put(namespace, id, JSON.parse(JSON.stringify(value)) as Record<string, JsonValue>, {
      index: false,
    });
    void this.#extract(namespace, id, value);
  }

  async recover(options: { readonly appName?: string } = {}): Promise<number> {
    const prefix = options.appName === undefined ? [PENDING] : [PENDING, memoryLabel(options.appName)];
    const pending: StoreSearchItem[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = await this.#store.search(prefix, { limit: PAGE, offset });
      pending.push(...page);
      if (page.length < PAGE) break;
    }
    let done = 0;
    for (const item of pending) {
      const value = item.value as unknown as PendingValue;
      if (await this.#extract(item.namespace, item.key, value)) done += 1;
    }
    return done;
  }

  async idle(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running.values()]);
  }

  /** Extracts one pending record and removes it; false (record kept) when the extraction failed. */
  #extract(namespace: readonly string[], id: string, value: PendingValue): Promise<boolean> {
    const running = this.#running.get(id);
    if (running) return running;
    const key: SessionKey = { appName: value.appName, userId: value.userId, sessionId: value.sessionId };
    const work = (async () => {
      try {
        await this.addMessages(key, value.messages);
        await this.#store.delete(namespace, id);
        return true;
      } catch (error) {
        this.#options.onError?.(error, key);
        return false;
      } finally {
        this.#running.delete(id);
      }
    })();
    this.#running.set(id, work);
    return work;
  }
}

function entryOf(item: StoreSearchItem): MemoryEntry {
  const value = item.value;
  return {
    id: item.key,
    text: String(value.text ?? ''),
    author: String(value.author ?? 'memory'),
    sessionId: String(value.sessionId ?? ''),
    timestamp: Number(value.timestamp ?? item.createdAt.getTime()),
    ...(item.score === undefined ? {} : { score: item.score }),
  };
}

/** Words of three letters or more (all words when none is that long). */
function significant(words: readonly string[]): string[] {
  const long = words.filter((word) => word.length >= 3);
  return [...new Set(long.length > 0 ? long : words)];
}

/**
 * Checks whose memories a call is about as sessions check their names: `appName`, `userId` (and a
 * session key's `sessionId`) must be non-empty strings.
 */
function checkScope(scope: Partial<MemoryScope> & { readonly sessionId?: unknown }, method: string): void {
  const fields =
    'sessionId' in scope ? (['appName', 'userId', 'sessionId'] as const) : (['appName', 'userId'] as const);
  for (const field of fields) {
    const value: unknown = scope[field];
    if (typeof value !== 'string' || value === '') {
      throw new AdkError(
        'INVALID_ARGUMENT',
        `memory.${method}: ${field} must be a non-empty string, got ${JSON.stringify(value) ?? 'undefined'}`,
      );
    }
  }
}
