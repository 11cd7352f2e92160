import {
  type AnyTool,
  type ChatModel,
  type Message,
  messagesReducer,
  messageText,
  systemMessage,
  tool,
  userMessage,
  withRetry,
} from '@weft/adk';
import { detectToolCalls, executeToolCalls } from '@weft/adk/agent-graph';
import { OpenAIChatModel } from '@weft/adk/openai';
import { ScriptedChatModel, startOpenAICompatibleServer } from '@weft/adk/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const getWeather = tool({
  name: 'get_weather',
  description: 'Current weather of a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, sky: city === 'Oslo' ? 'snow' : 'sun' }),
});

/** The smallest ReAct loop: call the model, run its tool calls, repeat until it answers in text. */
async function runLoop(model: ChatModel, tools: AnyTool[], question: string): Promise<Message[]> {
  let history = messagesReducer([], [systemMessage('Answer with the tools.'), userMessage(question)]);
  for (let turn = 0; turn < 5; turn++) {
    const { hasToolCalls, message } = await detectToolCalls(
      model.stream(history, { tools: tools.map((t) => t.spec) }),
    );
    history = messagesReducer(history, message);
    if (!hasToolCalls) return history;
    history = messagesReducer(history, await executeToolCalls(message.toolCalls ?? [], tools));
  }
  throw new Error('too many turns');
}

describe('a tool loop through the public API', () => {
  it('runs with the scripted model, repairing a bad tool call from the error message', async () => {
    const model = new ScriptedChatModel([
      { text: 'Let me check.', toolCalls: [{ name: 'get_weather', arguments: { town: 'Oslo' } }] },
      { toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] },
      'It is snowing in Oslo.',
    ]);
    const history = await runLoop(model, [getWeather], 'Weather in Oslo?');
    expect(history.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(messageText(history[3]!)).toMatch(/- city: .*expected string/);
    expect(history[5]).toMatchObject({
      status: 'success',
      content: [{ type: 'json', value: { city: 'Oslo', sky: 'snow' } }],
    });
    expect(messageText(history.at(-1)!)).toBe('It is snowing in Oslo.');
    expect(new Set(history.map((message) => message.id)).size).toBe(history.length);
    expect(model.calls[1]?.messages.at(-1)).toMatchObject({ role: 'tool', status: 'error' });
  });

  it('runs against an OpenAI-compatible server, streaming text before the tool call', async () => {
    const server = await startOpenAICompatibleServer({
      script: [
        { error: { status: 500 } },
        {
          text: 'Checking the weather first.',
          toolCalls: [{ name: 'get_weather', arguments: { city: 'Lima' } }],
        },
        'Sunny in Lima.',
      ],
    });
    try {
      const model = withRetry(
        new OpenAIChatModel({ baseURL: server.baseURL, apiKey: 'k', model: 'loop', env: {} }),
        {
          initialDelayMs: 1,
          jitter: 0,
        },
      );
      const history = await runLoop(model, [getWeather], 'Weather in Lima?');
      expect(messageText(history.at(-1)!)).toBe('Sunny in Lima.');
      const lastRequest = server.requests.at(-1)?.body.messages as unknown[];
      expect(lastRequest.at(-1)).toEqual({
        role: 'tool',
        tool_call_id: 'call_1_0',
        content: '{"city":"Lima","sky":"sun"}',
      });
      expect(server.requests).toHaveLength(3);
    } finally {
      await server.close();
    }
  });
});
