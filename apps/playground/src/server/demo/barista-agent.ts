import {
  ChatModelAgent,
  loadMemoryTool,
  type MemoryService,
  type Message,
  memorize,
  messageText,
  recall,
  tool,
} from '@weft/adk';
import { ScriptedChatModel, type ScriptedResponse } from '@weft/adk/testing';
import { z } from 'zod';

const saveOrder = tool({
  name: 'save_order',
  description: 'Writes the order ticket as a file of the conversation',
  parameters: z.object({ drink: z.string() }),
  async execute({ drink }, context) {
    const version = await context.artifacts?.save('order.txt', {
      data: `1 × ${drink}`,
      mimeType: 'text/plain',
    });
    return `Order ticket saved (version ${version}).`;
  },
});

/** The scripted barista: remembers what you like (through the instruction) and writes order tickets. */
function answer(messages: readonly Message[]): ScriptedResponse {
  const last = messages.at(-1);
  if (last?.role === 'tool') return messageText(last);
  const instruction = messages[0]?.role === 'system' ? messageText(messages[0]) : '';
  const text = last ? messageText(last) : '';
  if (/\border\b/i.test(text)) {
    const drink = /green tea/i.test(instruction) ? 'green tea' : 'house coffee';
    return { toolCalls: [{ name: 'save_order', arguments: { drink } }] };
  }
  if (/usual|recommend|drink/i.test(text))
    return /green tea/i.test(instruction)
      ? 'A green tea, as you like it.'
      : 'Our house coffee is good today.';
  return 'Noted. I will remember that.';
}

/**
 * The demo's memory agent: `recall` puts what it remembers about the user in its instruction,
 * `memorize` extracts each turn in the background, `load_memory` searches on demand, and `save_order`
 * writes an artifact of the thread.
 *
 * @example
 * ```ts
 * const agent = buildBaristaAgent({ memory: new StoreMemoryService({ store: new MemoryStore() }) });
 * ```
 */
export function buildBaristaAgent(options: {
  readonly memory: MemoryService;
  readonly chunkDelayMs?: number;
}): ChatModelAgent {
  const model = new ScriptedChatModel((messages) => answer(messages), {
    name: 'scripted-barista',
    ...(options.chunkDelayMs === undefined ? {} : { chunkDelayMs: options.chunkDelayMs }),
  });
  return new ChatModelAgent({
    name: 'barista',
    description: 'Remembers your preferences across threads and writes order tickets as artifacts',
    instruction: 'You are a friendly barista.',
    model,
    tools: [loadMemoryTool(options.memory), saveOrder],
    middleware: [recall({ memory: options.memory }), memorize({ memory: options.memory })],
  });
}
