import type { Message } from '../message/message.js';
import type { Session, SessionKey } from '../session/session.js';

/**
 * One remembered fact about a user: its text, where it came from and, for a ranked search, how close it
 * is to the query.
 *
 * @example
 * ```ts
 * const memory = new StoreMemoryService({ store: new MemoryStore() });
 * const [first] = await memory.search('drinks', { appName: 'shop', userId: 'u1' });
 * console.log(first?.text, first?.sessionId);
 * ```
 */
export interface MemoryEntry {
  /** Stable id (the same text for the same user always gets the same id, so a re-extraction is a no-op). */
  readonly id: string;
  readonly text: string;
  /** Who said it: `user`, an agent's name, or the extractor's own (`memory`). */
  readonly author: string;
  /** The session it was taken from. */
  readonly sessionId: string;
  /** Milliseconds since the epoch when it was remembered. */
  readonly timestamp: number;
  /** Similarity to the query (vector cosine, or the share of query words found): higher is closer. */
  readonly score?: number;
}

/** Whose memories: one user of one app. A user's memories never reach another user or app. */
export interface MemoryScope {
  readonly appName: string;
  readonly userId: string;
}

/**
 * Options of {@link MemoryService.search}.
 *
 * @example
 * ```ts
 * const options: MemorySearchOptions = { appName: 'shop', userId: 'u1', limit: 3 };
 * ```
 */
export interface MemorySearchOptions extends MemoryScope {
  /** Most entries to return (default 5). */
  readonly limit?: number;
  readonly signal?: AbortSignal;
}

/**
 * Long-term memory across sessions (Google ADK's `MemoryService`): sessions go in (`addSession`, or a
 * turn's messages in the background with `enqueue`), their facts are extracted and kept per app and
 * user, and `search` finds the ones relevant to a query. `StoreMemoryService` implements it on any
 * `Store` (memory, SQLite, PostgreSQL).
 *
 * @example
 * ```ts
 * const sessions = new MemorySessionService();
 * const session = await sessions.create({ appName: 'shop', userId: 'u1' });
 * const memory: MemoryService = new StoreMemoryService({ store: new MemoryStore() });
 * await memory.addSession(session);
 * const hits = await memory.search('favourite drink', { appName: session.appName, userId: session.userId });
 * ```
 */
export interface MemoryService {
  /** Extracts the memories of a whole session and keeps them; resolves with the new or refreshed entries. */
  addSession(session: Session, options?: { readonly signal?: AbortSignal }): Promise<MemoryEntry[]>;
  /** Extracts the memories of some messages of a session (e.g. one turn) and keeps them. */
  addMessages(
    key: SessionKey,
    messages: readonly Message[],
    options?: { readonly signal?: AbortSignal },
  ): Promise<MemoryEntry[]>;
  /** The user's memories most relevant to `query`, best first. */
  search(query: string, options: MemorySearchOptions): Promise<MemoryEntry[]>;
  /** Every memory of the user, newest first. */
  list(scope: MemoryScope): Promise<MemoryEntry[]>;
  /** Forgets one memory (nothing happens when it is absent). */
  delete(scope: MemoryScope, id: string): Promise<void>;
  /**
   * Records messages for extraction durably, then extracts them in the background: resolves once the
   * record is stored, before the extraction. A record left by a process that died is extracted by
   * {@link MemoryService.recover}.
   */
  enqueue(key: SessionKey, messages: readonly Message[]): Promise<void>;
  /** Extracts every pending record (left by this process or one that died); resolves with how many. */
  recover(): Promise<number>;
  /** Resolves when no background extraction of this object is running (a failed one is kept pending). */
  idle(): Promise<void>;
}
