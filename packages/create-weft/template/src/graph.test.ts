import { MemorySessionService, messageText, Runner } from '@weft/adk';
import { expect, test } from 'vitest';
import { calculator } from './agent.ts';
import { counter } from './graph.ts';

test('the counter loops to its target', async () => {
  expect(await counter.invoke({ target: 4 })).toEqual({ count: 4, target: 4 });
});

test('the calculator adds with its tool', async () => {
  const runner = new Runner({ agent: calculator, sessionService: new MemorySessionService() });
  const results: string[] = [];
  for await (const event of runner.run({ userId: 'u', sessionId: 's', message: 'What is 2 + 3?' }))
    if (!event.partial && event.message?.role === 'tool') results.push(messageText(event.message));
  expect(results).toEqual(['5']);
});
