import type { SessionKey } from '../session/session.js';
import type { MemoryEntry, MemoryService } from './memory-service.js';

/**
 * The Runner's memory service bound to the session a tool runs in (Google ADK's
 * `tool_context.search_memory`): searches only the session's user, in the session's app.
 *
 * @example
 * ```ts
 * const recallTool = tool({
 *   name: 'recall_diet',
 *   description: 'What the user eats',
 *   parameters: z.object({}),
 *   execute: async (_args, context) => (await context.memory?.search('diet', { limit: 3 }))?.map((m) => m.text) ?? [],
 * });
 * ```
 */
export interface SessionMemory {
  /** The user's memories most relevant to `query`, best first (default limit 5). */
  search(query: string, options?: { readonly limit?: number }): Promise<MemoryEntry[]>;
  /** The service behind it (to add or list memories). */
  readonly service: MemoryService;
  /** The session it is bound to. */
  readonly key: SessionKey;
}

/** Binds a memory service to a session, for a tool's `context.memory`. */
export function sessionMemory(service: MemoryService, key: SessionKey, signal?: AbortSignal): SessionMemory {
  return {
    service,
    key,
    search: (query, options = {}) =>
      service.search(query, {
        appName: key.appName,
        userId: key.userId,
        ...(options.limit === undefined ? {} : { limit: options.limit }),
        ...(signal ? { signal } : {}),
      }),
  };
}
