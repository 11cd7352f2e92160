import { z } from 'zod';
import { type AnyTool, tool } from '../tool/tool.js';
import type { MemoryService } from './memory-service.js';
import { sessionKeyOf } from './session-key-of.js';

/** The name of the tool {@link loadMemoryTool} makes. */
export const LOAD_MEMORY_TOOL = 'load_memory';

/**
 * The `load_memory` tool (Google ADK's): the model searches the current user's long-term memory with a
 * query of its own and reads `{ memories: [{ text, author, time }] }`. Only the session's user (and app)
 * is searched; the tool is read-only. Needs a Runner (it reads the session's user).
 *
 * @throws AdkError `INVALID_ARGUMENT` (as the call's error result) when run outside a Runner.
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel
 * const memory = new StoreMemoryService({ store: new MemoryStore() });
 * const agent = new ChatModelAgent({ name: 'helper', model, tools: [loadMemoryTool(memory)] });
 * ```
 */
export function loadMemoryTool(memory: MemoryService, options: { readonly limit?: number } = {}): AnyTool {
  return tool({
    name: LOAD_MEMORY_TOOL,
    description:
      'Searches what you remember about the current user from earlier conversations. Use it when the answer may depend on their preferences, details or past requests.',
    parameters: z.object({ query: z.string().describe('What to look for, in a few words') }),
    readOnly: true,
    async execute({ query }, context) {
      const { appName, userId } = sessionKeyOf(context, LOAD_MEMORY_TOOL);
      const hits = await memory.search(query, {
        appName,
        userId,
        limit: options.limit ?? 5,
        signal: context.signal,
      });
      return {
        memories: hits.map((hit) => ({
          text: hit.text,
          author: hit.author,
          time: new Date(hit.timestamp).toISOString(),
        })),
      };
    },
  }) as unknown as AnyTool;
}
