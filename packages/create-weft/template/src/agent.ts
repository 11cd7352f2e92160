import { ChatModelAgent, tool } from '@weft/adk';
import { ScriptedChatModel } from '@weft/adk/testing';
import { z } from 'zod';

const add = tool({
  name: 'add',
  description: 'Adds two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

/** An agent on a scripted model (no network): it calls `add`, then answers. */
export const calculator = new ChatModelAgent({
  name: 'calculator',
  instruction: 'You add numbers with the add tool.',
  model: new ScriptedChatModel([{ toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] }, 'It is 5.']),
  tools: [add],
});
