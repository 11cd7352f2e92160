import { MemorySessionService, messageText, Runner } from '@weft/adk';
import { expect, test } from 'vitest';
import { calculator } from './agent.ts';
import { counter } from './graph.ts';

test('the counter loops to its target', async () => {
  expect(await counter.invoke({ target: 4 })).toEqual({ count: 4, target: 4 });
});

test('the calculator adds with its tool, turn after turn', async () => {
  const runner = new Runner({ agent: calculator, sessionService: new MemorySessionService() });
  const replies: string[] = [];
  for (const message of ['What is 2 + 3?', 'And 40 + 2?', 'Thanks!']) {
    for await (const event of runner.run({ userId: 'u', sessionId: 's', message }))
      if (!event.partial && event.message?.role === 'assistant' && messageText(event.message) !== '')
        replies.push(messageText(event.message));
  }
  expect(replies).toEqual(['It is 5.', 'It is 42.', 'Ask me to add two numbers, like: what is 2 + 3?']);
});
