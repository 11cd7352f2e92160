import { expect, test } from 'vitest';
import { type AgentMiddleware, ChatModelAgent, MemorySessionService, Runner } from '../src/index.js';
import { drain, ScriptedChatModel } from '../src/testing/index.js';

test('session writes of every hook reach the graph state and the session', async () => {
  const writing: AgentMiddleware = {
    beforeAgent: (ctx) => ctx.session.set('beforeAgent', 1),
    beforeModel: (_request, ctx) => ctx.session.set('beforeModel', ctx.iteration + 1),
    afterModel: (_response, ctx) => ctx.session.set('afterModel', true),
    afterAgent: (ctx) => ctx.session.set('afterAgent', 'yes'),
  };
  const model = new ScriptedChatModel(['hi', 'hi again']);
  const agent = new ChatModelAgent({ name: 'hooked', model, middleware: [writing] });
  const state = await agent.graph.invoke({ input: 'hello' });
  expect(state.stateDelta).toMatchObject({
    beforeAgent: 1,
    beforeModel: 1,
    afterModel: true,
    afterAgent: 'yes',
  });

  const sessions = new MemorySessionService();
  const runner = new Runner({ agent, sessionService: sessions });
  await drain(runner.run({ userId: 'u', sessionId: 's', message: 'hello' }));
  const session = await sessions.get({ appName: 'hooked', userId: 'u', sessionId: 's' });
  expect(session?.state).toMatchObject({
    beforeAgent: 1,
    beforeModel: 1,
    afterModel: true,
    afterAgent: 'yes',
  });
});

test('a later hook reads what an earlier model hook wrote in the same invocation', async () => {
  let seen: unknown;
  const model = new ScriptedChatModel(['one']);
  const agent = new ChatModelAgent({
    name: 'reader',
    model,
    middleware: [
      { beforeModel: (_r, ctx) => ctx.session.set('counter', 41) },
      { afterAgent: (ctx) => void (seen = ctx.session.get('counter')) },
    ],
  });
  const runner = new Runner({ agent, sessionService: new MemorySessionService() });
  await drain(runner.run({ userId: 'u', sessionId: 's', message: 'go' }));
  expect(seen).toBe(41);
});
