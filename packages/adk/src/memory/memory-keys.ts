import { createHash } from 'node:crypto';

/** Namespace root of memories: `[MEMORIES, app, user]`. */
export const MEMORIES = 'memories';
/** Namespace root of pending extractions: `[PENDING, app]`. */
export const PENDING = 'memory_pending';

/**
 * A store namespace label for an app or user id: a store label may not be empty nor hold `.`, so `%`
 * and `.` are escaped (`a.b` → `a%2Eb`) and the empty id becomes `%`. Distinct ids stay distinct.
 *
 * @example
 * ```ts
 * memoryLabel('ada.l'); // 'ada%2El'
 * ```
 */
export function memoryLabel(id: string): string {
  if (id === '') return '%';
  return id.replaceAll('%', '%25').replaceAll('.', '%2E');
}

/** The namespace of one user's memories. */
export function memoryNamespace(appName: string, userId: string): string[] {
  return [MEMORIES, memoryLabel(appName), memoryLabel(userId)];
}

/** A stable id from parts (sha-256, 32 hex digits). */
export function stableId(...parts: readonly string[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 32);
}

/** Lower-cased words of a text (letters and digits), for keyword ranking. */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}
