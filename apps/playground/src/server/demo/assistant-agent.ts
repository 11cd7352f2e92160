import { ChatModelAgent, type Message, messageText, tool } from '@weft/adk';
import { ScriptedChatModel, type ScriptedChatModelOptions, type ScriptedResponse } from '@weft/adk/testing';
import { z } from 'zod';

const weather = tool({
  name: 'get_weather',
  description: 'The current weather in a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `Sunny and 21 °C in ${city}, light wind from the west.`,
});

const bookTable = tool({
  name: 'book_table',
  description: 'Books a restaurant table (a person must approve it)',
  parameters: z.object({ restaurant: z.string(), people: z.number().int().min(1), time: z.string() }),
  needsApproval: true,
  execute: ({ restaurant, people, time }) => `Booked ${restaurant} for ${people} at ${time}.`,
});

/** Picks a city from "… weather in Lyon?" (default Paris). */
function cityOf(text: string): string {
  const match = /\bin ([A-Z][\w-]+)/.exec(text);
  return match?.[1] ?? 'Paris';
}

/** The scripted "model": decides from the last message, as a small real model would. */
function answer(messages: readonly Message[]): ScriptedResponse {
  const last = messages.at(-1);
  if (last?.role === 'tool') {
    const result = messageText(last);
    if (/rejected|not approved|denied/i.test(result)) {
      return 'I did not book the table, since the booking was not approved. Tell me if you want another time or place.';
    }
    return `Here is what I found: ${result} Anything else I can do for you?`;
  }
  const text = last ? messageText(last) : '';
  if (/\bbook\b/i.test(text)) {
    return {
      text: 'I will book that for you once you approve.',
      toolCalls: [{ name: 'book_table', arguments: { restaurant: 'Chez Weft', people: 2, time: '19:30' } }],
    };
  }
  if (/weather/i.test(text)) {
    return { toolCalls: [{ name: 'get_weather', arguments: { city: cityOf(text) } }] };
  }
  return `You said: "${text}". I am a scripted demo model: ask me about the weather in a city, or ask me to book a table (that needs your approval).`;
}

/**
 * The demo's tool-using agent on a scripted model (no network): it looks up the weather, and books
 * tables only after a person approves the tool call. Tokens stream word by word.
 *
 * @example
 * ```ts
 * const agent = buildAssistantAgent();
 * console.log(agent.graph.toMermaid());
 * ```
 */
export function buildAssistantAgent(
  options: {
    readonly chunkDelayMs?: number;
    readonly beforeChunk?: ScriptedChatModelOptions['beforeChunk'];
  } = {},
): ChatModelAgent {
  return new ChatModelAgent({
    name: 'assistant',
    description: 'Weather and restaurant bookings, on a scripted model',
    instruction: 'You are a helpful assistant. Use tools when they help.',
    model: new ScriptedChatModel(answer, {
      name: 'scripted-demo',
      chunkDelayMs: options.chunkDelayMs ?? 40,
      ...(options.beforeChunk === undefined ? {} : { beforeChunk: options.beforeChunk }),
    }),
    tools: [weather, bookTable],
  });
}
