import type { JsonValue } from '../message/message.js';
import type { SessionKey } from '../session/session.js';

/** Names starting with this are the user's (shared by all their sessions of the app); others the session's. */
export const USER_ARTIFACT_PREFIX = 'user:';

/**
 * What to save as an artifact: bytes or text, its media type and optional JSON metadata.
 *
 * @example
 * ```ts
 * const input: ArtifactInput = { data: 'id,total\n1,9.5', mimeType: 'text/csv' };
 * ```
 */
export interface ArtifactInput {
  /** The content; a string is stored as UTF-8. */
  readonly data: Uint8Array | string;
  /** Default `text/plain` for a string, `application/octet-stream` for bytes. */
  readonly mimeType?: string;
  readonly metadata?: Readonly<Record<string, JsonValue>>;
}

/**
 * One stored version of an artifact.
 *
 * @example
 * ```ts
 * const artifacts = new StoreArtifactService({ store: new MemoryStore() });
 * const key = { appName: 'reports', userId: 'u1', sessionId: 's1' };
 * const report = await artifacts.load(key, 'report.csv');
 * if (report) console.log(report.version, new TextDecoder().decode(report.data));
 * ```
 */
export interface Artifact {
  readonly name: string;
  /** 0 for the first save, then 1, 2... per name. */
  readonly version: number;
  readonly data: Uint8Array;
  readonly mimeType: string;
  /** Bytes of `data`. */
  readonly size: number;
  /** Milliseconds since the epoch when this version was saved. */
  readonly createdAt: number;
  readonly metadata?: Readonly<Record<string, JsonValue>>;
}

/**
 * Versioned named blobs per session, or per user for names starting with `user:` (Google ADK's
 * `ArtifactService`): each `save` adds a version, `load` reads the latest or a given one. Implemented
 * by `StoreArtifactService` (any compose `Store`: memory, SQLite, PostgreSQL) and
 * `FileArtifactService` (a directory); all pass one conformance suite.
 *
 * @example
 * ```ts
 * const artifacts = new StoreArtifactService({ store: new MemoryStore() });
 * const key = { appName: 'reports', userId: 'u1', sessionId: 's1' };
 * const version = await artifacts.save(key, 'summary.md', { data: '# Q3', mimeType: 'text/markdown' });
 * const latest = await artifacts.load(key, 'summary.md');
 * const names = await artifacts.list(key); // ['summary.md', ...the user's 'user:' artifacts]
 * ```
 */
export interface ArtifactService {
  /**
   * Stores a new version and resolves with its number.
   *
   * @throws AdkError `INVALID_ARGUMENT` for an empty name, one over 512 characters or holding a NUL.
   */
  save(key: SessionKey, name: string, input: ArtifactInput): Promise<number>;
  /** The latest version, or `version`; `undefined` when absent. */
  load(key: SessionKey, name: string, options?: { readonly version?: number }): Promise<Artifact | undefined>;
  /** Names of the session's artifacts and of the user's (`user:`) ones, sorted. */
  list(key: SessionKey): Promise<string[]>;
  /** Version numbers of a name, ascending (`[]` when absent). */
  versions(key: SessionKey, name: string): Promise<number[]>;
  /** Removes every version of a name (nothing happens when absent). */
  delete(key: SessionKey, name: string): Promise<void>;
}
