import { ChatModelAgent, type Message, messageText, tool } from '@weft/adk';
import { ScriptedChatModel, type ScriptedResponse } from '@weft/adk/testing';
import { z } from 'zod';

const add = tool({
  name: 'add',
  description: 'Adds two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

/**
 * A stand-in for a real model (no network, no key), answering every turn from the conversation: a
 * question with two numbers calls `add`; a tool result is read back; anything else gets a hint.
 */
function demoModel(messages: readonly Message[]): ScriptedResponse {
  const last = messages.at(-1);
  if (last?.role === 'tool') return `It is ${messageText(last)}.`;
  const numbers = (last ? messageText(last) : '').match(/-?\d+(?:\.\d+)?/g)?.map(Number) ?? [];
  const [a, b] = numbers;
  if (a === undefined || b === undefined) return 'Ask me to add two numbers, like: what is 2 + 3?';
  return { toolCalls: [{ name: 'add', arguments: { a, b } }] };
}

/** An agent on a scripted model: it calls `add` for every sum it is asked, then answers. */
export const calculator = new ChatModelAgent({
  name: 'calculator',
  instruction: 'You add numbers with the add tool.',
  model: new ScriptedChatModel(demoModel, { name: 'demo-calculator' }),
  tools: [add],
});
