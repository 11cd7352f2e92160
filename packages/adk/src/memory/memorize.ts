import type { AgentMiddleware } from '../agent/middleware.js';
import type { Message } from '../message/message.js';
import type { MemoryService } from './memory-service.js';

/**
 * Middleware that feeds long-term memory after each turn, in the background: when the agent finishes,
 * the turn's messages (from its user message on) are recorded as a pending extraction in the memory's
 * store — durable before the turn ends — and extracted without the turn waiting for it. The first turn
 * an agent runs with it also starts `memory.recover()`, so extractions a crashed process left pending
 * are finished. Without `memory` it uses the Runner's `memoryService`; outside a Runner (no session), or
 * with no service at all, it does nothing.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel
 * const memory = new StoreMemoryService({ store: new MemoryStore() });
 * const agent = new ChatModelAgent({ name: 'helper', model, middleware: [recall({ memory }), memorize({ memory })] });
 * // tests: await memory.idle() waits for the background extractions
 * ```
 */
export function memorize(
  options: {
    /** Where to keep the memories (default: the Runner's `memoryService`). */
    readonly memory?: MemoryService;
    /** Called when starting `recover()` fails (default: ignored; the records stay pending). */
    readonly onError?: (error: unknown) => void;
  } = {},
): AgentMiddleware {
  const recovering = new WeakSet<MemoryService>();
  return {
    name: 'memorize',
    beforeAgent(ctx) {
      const memory = options.memory ?? ctx.memory;
      if (!ctx.sessionKey || !memory || recovering.has(memory)) return;
      recovering.add(memory);
      memory.recover().catch((error: unknown) => options.onError?.(error));
    },
    async afterAgent(ctx) {
      const key = ctx.sessionKey;
      const memory = options.memory ?? ctx.memory;
      if (!key || !memory) return;
      const turn = currentTurn(ctx.state.messages);
      if (turn.length > 0) await memory.enqueue(key, turn);
    },
  };
}

/** The messages of the last turn: from the last user message to the end. */
function currentTurn(messages: readonly Message[]): Message[] {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]?.role === 'user') return messages.slice(i);
  return [];
}
