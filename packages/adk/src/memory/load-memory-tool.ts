import { z } from 'zod';
import { AdkError } from '../errors/adk-error.js';
import { type AnyTool, tool } from '../tool/tool.js';
import type { MemoryService } from './memory-service.js';
import { sessionKeyOf } from './session-key-of.js';

/** The name of the tool {@link loadMemoryTool} makes. */
export const LOAD_MEMORY_TOOL = 'load_memory';

/**
 * The `load_memory` tool (Google ADK's): the model searches the current user's long-term memory with a
 * query of its own and reads `{ memories: [{ text, author, time }] }`. Only the session's user (and app)
 * is searched; the tool is read-only. Needs a Runner (it reads the session's user); without `memory` it
 * searches the Runner's `memoryService`.
 *
 * @throws AdkError `INVALID_ARGUMENT` (as the call's error result) when run outside a Runner, or with no
 *   service given and none on the Runner.
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel
 * const memory = new StoreMemoryService({ store: new MemoryStore() });
 * const agent = new ChatModelAgent({ name: 'helper', model, tools: [loadMemoryTool(memory)] });
 * const sameWithTheRunners = new ChatModelAgent({ name: 'helper', model, tools: [loadMemoryTool()] });
 * const runner = new Runner({ agent: sameWithTheRunners, sessionService: new MemorySessionService(), memoryService: memory });
 * ```
 */
export function loadMemoryTool(memory?: MemoryService, options: { readonly limit?: number } = {}): AnyTool {
  return tool({
    name: LOAD_MEMORY_TOOL,
    description:
      'Searches what you remember about the current user from earlier conversations. Use it when the answer may depend on their preferences, details or past requests.',
    parameters: z.object({ query: z.string().describe('What to look for, in a few words') }),
    readOnly: true,
    async execute({ query }, context) {
      const { appName, userId } = sessionKeyOf(context, LOAD_MEMORY_TOOL);
      const service = memory ?? context.memory?.service;
      if (!service) {
        throw new AdkError(
          'INVALID_ARGUMENT',
          `tool "${LOAD_MEMORY_TOOL}" has no memory service: give the Runner a memoryService, or pass one to loadMemoryTool(memory)`,
        );
      }
      const hits = await service.search(query, {
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
