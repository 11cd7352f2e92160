// The same ReAct scenario — two tools, one after the other, then an answer — through every model
// adapter, each end to end through its real client against a loopback server of its wire format.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type AgentEvent,
  type ChatModel,
  ChatModelAgent,
  MemorySessionService,
  Runner,
  tool,
} from '../src/index.js';
import { fromAiSdk } from '../src/model/ai-sdk/index.js';
import { AnthropicChatModel } from '../src/model/anthropic/index.js';
import { OpenAIChatModel } from '../src/model/openai/index.js';
import {
  startAnthropicServer,
  startOpenAICompatibleServer,
  startOpenAIResponsesServer,
} from '../src/testing/index.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const weather = tool({
  name: 'weather',
  description: 'Current temperature of a city in °C',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, celsius: city === 'Oslo' ? 4 : 18 }),
});
const subtract = tool({
  name: 'subtract',
  description: 'a - b',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a - b,
});

const turns = [
  { toolCalls: [{ id: 'call_w', name: 'weather', arguments: { city: 'Oslo' } }] },
  { toolCalls: [{ id: 'call_s', name: 'subtract', arguments: { a: 18, b: 4 } }] },
  { text: 'Rome is 14 degrees warmer than Oslo.' },
];

interface Fixture {
  readonly model: ChatModel;
  /** The text of every request's conversation, to check what went back to the model. */
  readonly requestTexts: () => string[];
}

const adapters: Record<string, () => Promise<Fixture>> = {
  'OpenAIChatModel (chat completions)': async () => {
    const server = await startOpenAICompatibleServer({ script: turns });
    closers.push(() => server.close());
    return {
      model: new OpenAIChatModel({ baseURL: server.baseURL, apiKey: 'k', model: 'gpt-test', env: {} }),
      requestTexts: () => server.requests.map((request) => JSON.stringify(request.body.messages)),
    };
  },
  'OpenAIChatModel (api: responses)': async () => {
    const server = await startOpenAIResponsesServer({ script: turns });
    closers.push(() => server.close());
    return {
      model: new OpenAIChatModel({
        baseURL: `${server.url}/v1`,
        apiKey: 'k',
        model: 'gpt-test',
        api: 'responses',
        env: {},
      }),
      requestTexts: () => server.requests.map((request) => JSON.stringify(request.body.input)),
    };
  },
  AnthropicChatModel: async () => {
    const server = await startAnthropicServer({ script: turns });
    closers.push(() => server.close());
    return {
      model: new AnthropicChatModel({ baseURL: server.url, apiKey: 'k', model: 'claude-test', env: {} }),
      requestTexts: () => server.requests.map((request) => JSON.stringify(request.body.messages)),
    };
  },
  'fromAiSdk(@ai-sdk/openai-compatible)': async () => {
    const server = await startOpenAICompatibleServer({ script: turns });
    closers.push(() => server.close());
    const provider = createOpenAICompatible({ name: 'loopback', baseURL: server.baseURL, apiKey: 'k' });
    return {
      model: fromAiSdk(provider.chatModel('test-model')),
      requestTexts: () => server.requests.map((request) => JSON.stringify(request.body.messages)),
    };
  },
};

describe.each(Object.entries(adapters))('ReAct scenario through %s', (_name, makeFixture) => {
  it.each([false, true])('calls weather, then subtract, then answers (streaming: %s)', async (streaming) => {
    const { model, requestTexts } = await makeFixture();
    const agent = new ChatModelAgent({
      name: 'forecaster',
      model,
      tools: [weather, subtract],
      outputKey: 'answer',
    });
    const sessions = new MemorySessionService();
    const runner = new Runner({ agent, sessionService: sessions, streaming });
    const events: AgentEvent[] = [];
    for await (const event of runner.run({
      userId: 'u',
      sessionId: 's',
      message: 'How much warmer is Rome than Oslo?',
    })) {
      events.push(event);
    }
    const session = await sessions.get({ appName: 'forecaster', userId: 'u', sessionId: 's' });
    expect(session?.state.answer).toBe('Rome is 14 degrees warmer than Oslo.');
    const committed = events.filter((event) => event.partial !== true && event.message !== undefined);
    expect(committed.map((event) => event.message?.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(events.some((event) => event.partial === true)).toBe(streaming);
    const [first, second, third] = requestTexts();
    expect(first).toContain('How much warmer');
    expect(second).toContain('call_w');
    expect(second).toContain('\\"celsius\\":4');
    expect(third).toContain('call_s');
    expect(third).toMatch(/"(content|output)":(\[\{"type":"text","text":)?"14"/);
  });
});
