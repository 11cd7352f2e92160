// Keeps the README's agent quickstart honest: the same code, with its output checked.
import { type AgentEvent, ChatModelAgent, MemorySessionService, Runner, tool } from '@weft/adk';
import { ScriptedChatModel } from '@weft/adk/testing';
import { expect, it } from 'vitest';
import { z } from 'zod';

it('runs the README agent quickstart', async () => {
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
  const agent = new ChatModelAgent({
    name: 'calc',
    instruction: 'You add numbers.',
    model,
    tools: [add],
    outputKey: 'answer',
  });
  const sessions = new MemorySessionService();
  const runner = new Runner({ agent, sessionService: sessions });
  const seen: AgentEvent[] = [];
  for await (const event of runner.run({ userId: 'u1', sessionId: 's1', message: 'What is 1 + 2?' }))
    seen.push(event);
  const complete = seen.filter((e) => !e.partial && e.message).map((e) => `${e.author}:${e.message?.role}`);
  expect(complete).toEqual(['user:user', 'calc:assistant', 'calc:tool', 'calc:assistant']);
  expect(seen.some((e) => e.partial && e.chunk)).toBe(true);
  const session = await sessions.get({ appName: 'calc', userId: 'u1', sessionId: 's1' });
  expect(session?.state.answer).toBe('It is 3.');
  expect(session?.events.some((e) => e.partial)).toBe(false);
});
