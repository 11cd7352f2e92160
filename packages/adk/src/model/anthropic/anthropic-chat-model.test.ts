import { WeftError } from '@weft/compose';
import { afterEach, describe, expect, it } from 'vitest';
import { ModelError } from '../../errors/model-error.js';
import { UnsupportedPartError } from '../../errors/unsupported-part-error.js';
import { mediaPart } from '../../message/media-part.js';
import { concatMessageChunks, type MessageChunk } from '../../message/message-chunk.js';
import {
  assistantMessage,
  systemMessage,
  toolMessage,
  userMessage,
} from '../../message/message-constructors.js';
import { type AnthropicServerOptions, startAnthropicServer } from '../../testing/anthropic-server.js';
import { drain } from '../../testing/drain.js';
import type { LoopbackServer } from '../../testing/loopback-http.js';
import { withRetry } from '../with-retry.js';
import { AnthropicChatModel, type AnthropicChatModelOptions } from './anthropic-chat-model.js';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function modelFor(options: AnthropicServerOptions, settings: AnthropicChatModelOptions = {}) {
  server = await startAnthropicServer(options);
  return new AnthropicChatModel({
    baseURL: server.url,
    apiKey: 'test-key',
    model: 'claude-test',
    env: {},
    ...settings,
  });
}

const weatherSpec = {
  name: 'get_weather',
  description: 'Weather of a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

describe('AnthropicChatModel.generate', () => {
  it('sends system, tools with cache breakpoints and max_tokens, and maps usage and stop reason', async () => {
    const model = await modelFor({
      script: [{ text: 'Hello!', usage: { input: 10, output: 3, cacheRead: 100, cacheWrite: 20 } }],
    });
    const reply = await model.generate([systemMessage('Be brief.'), userMessage('Hi')], {
      tools: [weatherSpec],
      toolChoice: 'required',
      temperature: 0,
    });
    expect(reply).toMatchObject({
      content: 'Hello!',
      finishReason: 'stop',
      usage: {
        inputTokens: 130,
        outputTokens: 3,
        totalTokens: 133,
        cachedInputTokens: 100,
        cacheWriteTokens: 20,
      },
      providerMetadata: { anthropic: { messageId: 'msg_0' } },
      modelId: 'claude-test',
    });
    expect([model.provider, model.modelId]).toEqual(['anthropic', 'claude-test']);
    const request = server?.requests[0];
    expect(request?.path).toBe('/v1/messages');
    expect(JSON.stringify(request?.headers)).toContain('test-key');
    expect(request?.body).toEqual({
      model: 'claude-test',
      max_tokens: 4096,
      system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      tools: [
        {
          name: 'get_weather',
          description: 'Weather of a city',
          input_schema: weatherSpec.parameters,
          cache_control: { type: 'ephemeral' },
        },
      ],
      tool_choice: { type: 'any' },
      temperature: 0,
    });
  });

  it('returns tool calls and sends a tool round trip as tool_use and tool_result blocks in one user turn', async () => {
    const model = await modelFor({
      script: [
        { toolCalls: [{ id: 'toolu_1', name: 'get_weather', arguments: { city: 'Oslo' } }] },
        'Sunny.',
      ],
    });
    const first = await model.generate([userMessage('Weather in Oslo and Lima?')], { tools: [weatherSpec] });
    expect(first.toolCalls).toEqual([{ id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Oslo"}' }]);
    expect(first.finishReason).toBe('tool-calls');
    const lima = { id: 'toolu_2', name: 'get_weather', arguments: '{"city":"Lima"}' };
    await model.generate(
      [
        userMessage('Weather in Oslo and Lima?'),
        assistantMessage('', { toolCalls: [...(first.toolCalls ?? []), lima] }),
        toolMessage([{ type: 'json', value: { sky: 'clear' } }], {
          toolCallId: 'toolu_1',
          name: 'get_weather',
        }),
        toolMessage('no station', { toolCallId: 'toolu_2', name: 'get_weather', status: 'error' }),
      ],
      { tools: [weatherSpec], toolChoice: { name: 'get_weather' } },
    );
    const body = server?.requests[1]?.body;
    expect(body?.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Oslo and Lima?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } },
          { type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: { city: 'Lima' } },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_1',
            content: [{ type: 'text', text: '{"sky":"clear"}' }],
          },
          {
            type: 'tool_result',
            tool_use_id: 'toolu_2',
            content: [{ type: 'text', text: 'no station' }],
            is_error: true,
          },
        ],
      },
    ]);
    expect(body?.tool_choice).toEqual({ type: 'tool', name: 'get_weather' });
  });

  it('keeps thinking blocks with their signature and sends them back on the next turn', async () => {
    const model = await modelFor(
      {
        script: [
          {
            thinking: [{ text: 'Compare both.', signature: 'sig-A' }],
            redactedThinking: 'opaque',
            text: '42',
            usage: { thinking: 7 },
          },
          'Still 42.',
        ],
      },
      { thinking: { budgetTokens: 1024 } },
    );
    const first = await model.generate([userMessage('Answer?')]);
    expect(first.content).toEqual([
      { type: 'reasoning', text: 'Compare both.', signature: 'sig-A' },
      { type: 'reasoning', text: '', redacted: 'opaque' },
      { type: 'text', text: '42' },
    ]);
    expect(first.usage?.reasoningTokens).toBe(7);
    await model.generate([userMessage('Answer?'), first, userMessage('Sure?')]);
    expect(server?.requests[0]?.body.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
    expect((server?.requests[1]?.body.messages as unknown[] | undefined)?.[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Compare both.', signature: 'sig-A' },
        { type: 'redacted_thinking', data: 'opaque' },
        { type: 'text', text: '42' },
      ],
    });
  });

  it('sends images by URL and bytes, PDFs as documents, structured output; refuses audio naming the part', async () => {
    const model = await modelFor({ script: ['{"answer":"cat"}'] }, { promptCaching: false });
    const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] };
    await model.generate(
      [
        userMessage([
          { type: 'image', url: 'https://example.com/cat.png' },
          mediaPart({ type: 'image', mediaType: 'image/png', bytes: new Uint8Array([1]) }),
          mediaPart({
            type: 'file',
            mediaType: 'application/pdf',
            bytes: new Uint8Array([2]),
            filename: 'a.pdf',
          }),
        ]),
      ],
      { responseFormat: { type: 'json_schema', name: 'answer', schema } },
    );
    const body = server?.requests[0]?.body;
    expect((body?.messages as { content: unknown }[] | undefined)?.[0]?.content).toEqual([
      { type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' } },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AQ==' } },
      {
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data: 'Ag==' },
        title: 'a.pdf',
      },
    ]);
    expect(body?.output_config).toEqual({ format: { type: 'json_schema', schema } });
    const audio = userMessage([
      mediaPart({ type: 'audio', mediaType: 'audio/wav', bytes: new Uint8Array([1]) }),
    ]);
    const error = await model.generate([audio]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnsupportedPartError);
    expect(error).toMatchObject({
      code: 'UNSUPPORTED_PART',
      part: 'audio',
      role: 'user',
      model: 'anthropic:claude-test',
    });
    expect(server?.requests).toHaveLength(1);
  });

  it('maps HTTP errors to ModelError; withRetry retries 429 and 529 through the real client', async () => {
    const model = await modelFor({
      script: [
        { error: { status: 400, message: 'bad body' } },
        { error: { status: 429, headers: { 'retry-after': '0' } } },
        { error: { status: 529, type: 'overloaded_error' } },
        'finally',
      ],
    });
    const bad = await model.generate([userMessage('x')]).catch((caught: unknown) => caught);
    expect(bad).toBeInstanceOf(ModelError);
    expect(bad).toMatchObject({ status: 400, retryable: false });
    expect((bad as Error).message).toContain('bad body');
    const reply = await withRetry(model, { initialDelayMs: 1, maxDelayMs: 5, jitter: 0 }).generate([
      userMessage('x'),
    ]);
    expect(reply.content).toBe('finally');
    expect(server?.requests).toHaveLength(4);
  });
});

describe('AnthropicChatModel.stream', () => {
  it('streams thinking, text, and tool calls whose input_json arrives in fragments', async () => {
    const model = await modelFor(
      {
        script: [
          {
            thinking: [{ text: 'Two cities, two calls.', signature: 'sig-S' }],
            text: 'Checking both.',
            toolCalls: [
              { id: 'toolu_a', name: 'get_weather', arguments: { city: 'Oslo' } },
              { id: 'toolu_b', name: 'get_weather', arguments: { city: 'Lima' } },
              { id: 'toolu_c', name: 'now', arguments: {} },
            ],
            usage: { input: 5, output: 40, cacheRead: 50 },
          },
        ],
        chunkSize: 3,
      },
      { thinking: { budgetTokens: 1024 } },
    );
    const chunks = await drain(model.stream([userMessage('Weather?')], { tools: [weatherSpec] }));
    const argumentFragments = chunks
      .flatMap((chunk) => chunk.toolCallDeltas ?? [])
      .filter((delta) => delta.index === 2);
    expect(argumentFragments.length).toBeGreaterThan(2);
    const message = concatMessageChunks(chunks);
    expect(message.content).toEqual([
      { type: 'reasoning', text: 'Two cities, two calls.', signature: 'sig-S' },
      { type: 'text', text: 'Checking both.' },
    ]);
    expect(message.toolCalls).toEqual([
      { id: 'toolu_a', name: 'get_weather', arguments: '{"city":"Oslo"}' },
      { id: 'toolu_b', name: 'get_weather', arguments: '{"city":"Lima"}' },
      { id: 'toolu_c', name: 'now', arguments: '{}' },
    ]);
    expect(message).toMatchObject({
      finishReason: 'tool-calls',
      usage: { inputTokens: 55, outputTokens: 40, totalTokens: 95, cachedInputTokens: 50 },
      modelId: 'claude-test',
    });
    expect(server?.requests[0]?.body.stream).toBe(true);
  });

  it('retries a stream that failed before its first event', async () => {
    const model = await modelFor({ script: [{ error: { status: 503 } }, 'streamed'] });
    const chunks = await drain(withRetry(model, { initialDelayMs: 1, jitter: 0 }).stream([userMessage('x')]));
    expect(concatMessageChunks(chunks).content).toBe('streamed');
  });

  it('stops mid-stream on abort with an ABORTED error and closes the connection', async () => {
    const model = await modelFor({
      script: [{ text: 'a long answer that never ends', stallAfterChunks: 5 }],
      chunkSize: 2,
    });
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

describe('AnthropicChatModel configuration', () => {
  it('needs a model and an API key', () => {
    expect(() => new AnthropicChatModel({ env: {} })).toThrow(/no model/);
    expect(() => new AnthropicChatModel({ model: 'claude', env: {} })).toThrow(/no API key/);
    expect(new AnthropicChatModel({ env: { ANTHROPIC_MODEL: 'c', ANTHROPIC_API_KEY: 'k' } }).name).toBe(
      'anthropic:c',
    );
  });
});
