import { expect, test } from 'vitest';
import { z } from 'zod';
import { ChatModelAgent } from '../src/agent/chat-model-agent.js';
import { ScriptedChatModel } from '../src/testing/scripted-chat-model.js';
import { tool } from '../src/tool/tool.js';

test('agent answers with a tool round', async () => {
  const add = tool({
    name: 'add',
    description: 'adds',
    parameters: z.object({ a: z.number(), b: z.number() }),
    execute: ({ a, b }) => a + b,
  });
  const model = new ScriptedChatModel([
    { toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] },
    'The sum is 5.',
  ]);
  const agent = new ChatModelAgent({ name: 'calc', model, tools: [add], instruction: 'Be brief.' });
  const state = await agent.graph.invoke({ input: 'what is 2+3?' });
  expect(state.output).toBe('The sum is 5.');
  expect(state.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  expect(model.calls[1]?.messages[0]).toMatchObject({ role: 'system', content: 'Be brief.' });
  expect(agent.graph.toMermaid()).toContain('model -.-> cancelAfterModel');
});

test('session writes made by a beforeAgent hook are committed to the session', async () => {
  const { MemorySessionService, Runner } = await import('../src/index.js');
  const model = new ScriptedChatModel(['ok']);
  const agent = new ChatModelAgent({
    name: 'hooked',
    model,
    middleware: [{ beforeAgent: (ctx) => ctx.session.set('startedBy', 'hook') }],
  });
  const sessions = new MemorySessionService();
  const runner = new Runner({ agent, sessionService: sessions, streaming: false });
  for await (const _ of runner.run({ userId: 'u', sessionId: 's', message: 'hi' })) void _;
  const session = await sessions.get({ appName: 'hooked', userId: 'u', sessionId: 's' });
  expect(session?.state.startedBy).toBe('hook');
});
