// Keeps the README quickstart honest: the same code, with its output checked.
import { executeToolCalls, messagesReducer, tool, userMessage } from '@weft/adk';
import { ScriptedChatModel } from '@weft/adk/testing';
import { expect, it } from 'vitest';
import { z } from 'zod';

it('runs the README quickstart', async () => {
  const add = tool({
    name: 'add',
    description: 'Adds two numbers',
    parameters: z.object({ a: z.number(), b: z.number() }),
    execute: ({ a, b }) => a + b,
  });
  const model = new ScriptedChatModel([
    { toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }] },
    'It is 3.',
  ]);

  let history = messagesReducer([], userMessage('What is 1 + 2?'));
  const call = await model.generate(history, { tools: [add.spec] });
  history = messagesReducer(history, [call, ...(await executeToolCalls(call.toolCalls ?? [], [add]))]);
  const answer = await model.generate(history, { tools: [add.spec] });

  expect(answer.content).toBe('It is 3.');
  expect(history.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
  expect(history[2]).toMatchObject({
    toolCallId: 'call_scripted_0_0',
    content: [{ type: 'json', value: 3 }],
  });
  expect(model.calls[1]?.messages).toHaveLength(3);
});
