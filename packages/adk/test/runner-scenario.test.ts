import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { type AgentEvent, ChatModelAgent, MemorySessionService, Runner, tool } from '../src/index.js';
import { ScriptedChatModel } from '../src/testing/index.js';

const weather = tool({
  name: 'weather',
  description: 'Current weather of a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, celsius: city === 'Oslo' ? 4 : 18 }),
});
const calculator = tool({
  name: 'calculator',
  description: 'Evaluates a - b',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }, ctx) => {
    ctx.state.set('lastDifference', a - b);
    return a - b;
  },
});

async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

describe('Runner with a weather/calculator agent', () => {
  test('answers in three model calls, commits outputKey and tool state, and remembers the first turn', async () => {
    const model = new ScriptedChatModel([
      {
        toolCalls: [
          { name: 'weather', arguments: { city: 'Oslo' } },
          { name: 'weather', arguments: { city: 'Rome' } },
        ],
      },
      { toolCalls: [{ name: 'calculator', arguments: { a: 18, b: 4 } }] },
      'Rome is 14 degrees warmer than Oslo.',
      'You asked about Oslo and Rome.',
    ]);
    const agent = new ChatModelAgent({
      name: 'forecaster',
      model,
      tools: [weather, calculator],
      outputKey: 'answer',
      instruction: 'Help {user:name}.',
    });
    const sessions = new MemorySessionService();
    const runner = new Runner({ agent, sessionService: sessions, streaming: false });
    const events = await collect(
      runner.run({
        userId: 'u',
        sessionId: 's',
        message: 'How much warmer is Rome than Oslo?',
        state: { 'user:name': 'Ada' },
      }),
    );
    expect(model.calls).toHaveLength(3);
    expect(
      events.map((e) => `${e.author}:${e.message?.role ?? (e.turnComplete ? 'done' : 'delta')}`),
    ).toEqual([
      'user:user',
      'forecaster:assistant',
      'forecaster:tool',
      'forecaster:tool',
      'forecaster:assistant',
      'forecaster:tool',
      'forecaster:assistant',
      'forecaster:delta',
      'forecaster:done',
    ]);
    expect(model.calls[0]?.messages[0]).toMatchObject({ role: 'system', content: 'Help Ada.' });
    const session = await sessions.get({ appName: 'forecaster', userId: 'u', sessionId: 's' });
    expect(session?.state).toMatchObject({
      answer: 'Rome is 14 degrees warmer than Oslo.',
      lastDifference: 14,
      'user:name': 'Ada',
    });
    await collect(runner.run({ userId: 'u', sessionId: 's', message: 'What did I ask?' }));
    const second = model.calls[3]?.messages.map((m) => m.role);
    expect(second).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'tool',
      'assistant',
      'tool',
      'assistant',
      'user',
    ]);
  });
});
