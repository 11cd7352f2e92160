// The agent end to end through the real `openai` client against the loopback OpenAI-compatible server:
// streamed text before a tool call, tool-call argument deltas, a transient 500 retried, partial events.
import { type AgentEvent, ChatModelAgent, MemorySessionService, Runner, tool, withRetry } from '@weft/adk';
import { OpenAIChatModel } from '@weft/adk/openai';
import { startOpenAICompatibleServer } from '@weft/adk/testing';
import { expect, it } from 'vitest';
import { z } from 'zod';

it('runs a ChatModelAgent on an OpenAI-compatible endpoint with streaming tool calls', async () => {
  const server = await startOpenAICompatibleServer({
    script: [
      { text: 'Let me check. ', toolCalls: [{ name: 'weather', arguments: { city: 'Lima' } }] },
      { error: { status: 500 } },
      'Sunny in Lima, 24 degrees.',
    ],
  });
  try {
    const weather = tool({
      name: 'weather',
      description: 'Weather of a city',
      parameters: z.object({ city: z.string() }),
      execute: ({ city }) => ({ city, celsius: 24, sky: 'sun' }),
    });
    const model = withRetry(
      new OpenAIChatModel({ baseURL: server.baseURL, apiKey: 'k', model: 'loop', env: {} }),
      { initialDelayMs: 1, jitter: 0 },
    );
    const agent = new ChatModelAgent({
      name: 'weatherbot',
      instruction: 'Answer briefly.',
      model,
      tools: [weather],
      outputKey: 'answer',
    });
    const sessions = new MemorySessionService();
    const runner = new Runner({ agent, sessionService: sessions });
    const events: AgentEvent[] = [];
    for await (const event of runner.run({ userId: 'u', sessionId: 's', message: 'Weather in Lima?' }))
      events.push(event);
    const partialText = events
      .filter((e) => e.partial)
      .map((e) => e.chunk?.text ?? '')
      .join('');
    expect(partialText).toContain('Let me check.');
    expect(partialText).toContain('Sunny in Lima');
    const first = events.find((e) => e.message?.role === 'assistant');
    expect(first?.message).toMatchObject({ toolCalls: [{ name: 'weather', arguments: '{"city":"Lima"}' }] });
    const requests = server.requests.map((r) => r.body);
    expect(requests).toHaveLength(3);
    expect(requests[0]?.stream).toBe(true);
    expect(requests[0]?.tools as unknown[]).toHaveLength(1);
    expect(((requests[2]?.messages ?? []) as Array<{ role: string }>).map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
    ]);
    const session = await sessions.get({ appName: 'weatherbot', userId: 'u', sessionId: 's' });
    expect(session?.state.answer).toBe('Sunny in Lima, 24 degrees.');
  } finally {
    await server.close();
  }
});
