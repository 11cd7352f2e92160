// The bridge end to end with a real AI SDK provider package (@ai-sdk/openai-compatible) against the
// OpenAI-compatible loopback server.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { WeftError } from '@weft/compose';
import { afterEach, describe, expect, it } from 'vitest';
import { ModelError } from '../../errors/model-error.js';
import { concatMessageChunks, type MessageChunk } from '../../message/message-chunk.js';
import { userMessage } from '../../message/message-constructors.js';
import { drain } from '../../testing/drain.js';
import {
  type OpenAICompatibleServer,
  type ServerScript,
  startOpenAICompatibleServer,
} from '../../testing/openai-compatible-server.js';
import { withRetry } from '../with-retry.js';
import { fromAiSdk } from './ai-sdk-chat-model.js';

let server: OpenAICompatibleServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function modelFor(script: ServerScript, chunkSize?: number) {
  server = await startOpenAICompatibleServer({ script, ...(chunkSize === undefined ? {} : { chunkSize }) });
  const provider = createOpenAICompatible({
    name: 'loopback',
    baseURL: server.baseURL,
    apiKey: 'test-key',
    includeUsage: true,
  });
  return fromAiSdk(provider.chatModel('test-model'));
}

const weatherSpec = {
  name: 'get_weather',
  description: 'Weather of a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

describe('fromAiSdk(@ai-sdk/openai-compatible) against a loopback server', () => {
  it('generates text with usage, and tool calls', async () => {
    const model = await modelFor([
      { text: 'Hello!', usage: { inputTokens: 9, outputTokens: 3, totalTokens: 12 } },
      { toolCalls: [{ id: 'call_9', name: 'get_weather', arguments: { city: 'Oslo' } }] },
    ]);
    expect(model.name).toBe('loopback:test-model');
    const reply = await model.generate([userMessage('Hi')], { temperature: 0 });
    expect(reply).toMatchObject({
      content: 'Hello!',
      finishReason: 'stop',
      usage: { inputTokens: 9, outputTokens: 3, totalTokens: 12 },
    });
    expect(server?.requests[0]?.body).toMatchObject({
      model: 'test-model',
      messages: [{ role: 'user', content: 'Hi' }],
      temperature: 0,
    });
    const call = await model.generate([userMessage('Weather?')], {
      tools: [weatherSpec],
      toolChoice: { name: 'get_weather' },
    });
    expect(call.toolCalls).toEqual([{ id: 'call_9', name: 'get_weather', arguments: '{"city":"Oslo"}' }]);
    expect(call.finishReason).toBe('tool-calls');
    expect(server?.requests[1]?.body).toMatchObject({
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: weatherSpec.parameters } }],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
    });
  });

  it('streams text and tool calls whose arguments arrive in fragments', async () => {
    const model = await modelFor([
      {
        text: 'Checking both.',
        toolCalls: [
          { id: 'call_a', name: 'get_weather', arguments: { city: 'Oslo' } },
          { id: 'call_b', name: 'get_weather', arguments: { city: 'Lima' } },
        ],
      },
    ]);
    const chunks = await drain(model.stream([userMessage('Weather?')], { tools: [weatherSpec] }));
    expect(
      chunks.flatMap((chunk) => chunk.toolCallDeltas ?? []).filter((delta) => delta.arguments !== undefined)
        .length,
    ).toBeGreaterThan(2);
    const message = concatMessageChunks(chunks);
    expect(message.content).toBe('Checking both.');
    expect(message.toolCalls).toEqual([
      { id: 'call_a', name: 'get_weather', arguments: '{"city":"Oslo"}' },
      { id: 'call_b', name: 'get_weather', arguments: '{"city":"Lima"}' },
    ]);
    expect(message.usage?.totalTokens).toBeGreaterThan(0);
  });

  it('maps 400 to a ModelError, and withRetry retries 429 and 500', async () => {
    const model = await modelFor([
      { error: { status: 400, message: 'bad body' } },
      { error: { status: 429 } },
      { error: { status: 500 } },
      'finally',
    ]);
    const bad = await model.generate([userMessage('x')]).catch((caught: unknown) => caught);
    expect(bad).toBeInstanceOf(ModelError);
    expect(bad).toMatchObject({ status: 400, retryable: false });
    const reply = await withRetry(model, { initialDelayMs: 1, maxDelayMs: 5, jitter: 0 }).generate([
      userMessage('x'),
    ]);
    expect(reply.content).toBe('finally');
    expect(server?.requests).toHaveLength(4);
  });

  it('stops mid-stream on abort with an ABORTED error and closes the connection', async () => {
    const model = await modelFor([{ text: 'a long answer that never ends', stallAfterChunks: 4 }], 2);
    const controller = new AbortController();
    const seen: MessageChunk[] = [];
    const consume = async () => {
      for await (const chunk of model.stream([userMessage('x')], { signal: controller.signal })) {
        seen.push(chunk);
        if (seen.length === 2) controller.abort();
      }
    };
    const error = await consume().catch((caught: unknown) => caught);
    expect(WeftError.isInstance(error) && error.code).toBe('ABORTED');
    expect(seen).toHaveLength(2);
    await expect.poll(() => server?.disconnects, { timeout: 10_000 }).toBe(1);
  });
});
