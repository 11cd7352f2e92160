// The bridge with the AI SDK's own mock model (ai/test) and a hand-written v2 model.
import type { LanguageModelV2, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { WeftError } from '@weft/compose';
import { simulateReadableStream } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { AdkError } from '../../errors/adk-error.js';
import { ModelError } from '../../errors/model-error.js';
import { UnsupportedPartError } from '../../errors/unsupported-part-error.js';
import { mediaPart } from '../../message/media-part.js';
import { concatMessageChunks } from '../../message/message-chunk.js';
import {
  assistantMessage,
  systemMessage,
  toolMessage,
  userMessage,
} from '../../message/message-constructors.js';
import { drain } from '../../testing/drain.js';
import { withRetry } from '../with-retry.js';
import { fromAiSdk } from './ai-sdk-chat-model.js';

const usageV3 = {
  inputTokens: { total: 120, noCache: 20, cacheRead: 100, cacheWrite: undefined },
  outputTokens: { total: 30, text: 10, reasoning: 20 },
};
const weatherSpec = {
  name: 'get_weather',
  description: 'Weather of a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

function streamOf(chunks: LanguageModelV3StreamPart[]) {
  return { stream: simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: null }) };
}

describe('fromAiSdk with MockLanguageModelV3', () => {
  it('generates: reasoning with provider metadata, text, tool calls, usage and finish reason', async () => {
    const mock = new MockLanguageModelV3({
      provider: 'mock.chat',
      modelId: 'm1',
      doGenerate: {
        content: [
          { type: 'reasoning', text: 'Think.', providerMetadata: { anthropic: { signature: 'sig' } } },
          { type: 'text', text: 'Calling.' },
          { type: 'tool-call', toolCallId: 't1', toolName: 'get_weather', input: '{"city":"Oslo"}' },
        ],
        finishReason: { unified: 'tool-calls', raw: 'tool_use' },
        usage: usageV3,
        warnings: [],
        response: { id: 'resp-1' },
      },
    });
    const model = fromAiSdk(mock);
    expect(model.name).toBe('mock:m1');
    const reply = await model.generate([systemMessage('Be brief.'), userMessage('Weather?')], {
      tools: [weatherSpec],
      toolChoice: 'required',
      temperature: 0,
      maxTokens: 99,
    });
    expect(reply).toEqual({
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'Think.', providerMetadata: { anthropic: { signature: 'sig' } } },
        { type: 'text', text: 'Calling.' },
      ],
      toolCalls: [{ id: 't1', name: 'get_weather', arguments: '{"city":"Oslo"}' }],
      usage: {
        inputTokens: 120,
        outputTokens: 30,
        totalTokens: 150,
        cachedInputTokens: 100,
        reasoningTokens: 20,
      },
      finishReason: 'tool-calls',
      providerMetadata: { response: { id: 'resp-1' } },
    });
    expect(mock.doGenerateCalls[0]).toMatchObject({
      prompt: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
      ],
      tools: [
        {
          type: 'function',
          name: 'get_weather',
          description: 'Weather of a city',
          inputSchema: weatherSpec.parameters,
        },
      ],
      toolChoice: { type: 'required' },
      temperature: 0,
      maxOutputTokens: 99,
    });
  });

  it('sends reasoning back with its provider metadata as provider options, tool results as one tool message', async () => {
    const mock = new MockLanguageModelV3({
      doGenerate: {
        content: [{ type: 'text', text: 'ok' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: usageV3,
        warnings: [],
      },
    });
    const thinking = assistantMessage(
      [{ type: 'reasoning', text: 'Think.', providerMetadata: { openai: { itemId: 'rs_1' } } }],
      {
        toolCalls: [
          {
            id: 't1',
            name: 'get_weather',
            arguments: '{"city":"Oslo"}',
            providerMetadata: { google: { thoughtSignature: 'ts' } },
          },
          { id: 't2', name: 'get_weather', arguments: '{"city":"Lima"}' },
        ],
      },
    );
    await fromAiSdk(mock).generate([
      userMessage([
        { type: 'text', text: 'Look:' },
        mediaPart({ type: 'image', mediaType: 'image/png', bytes: new Uint8Array([1]) }),
      ]),
      thinking,
      toolMessage([{ type: 'json', value: { sky: 'clear' } }], { toolCallId: 't1', name: 'get_weather' }),
      toolMessage('no station', { toolCallId: 't2', name: 'get_weather', status: 'error' }),
    ]);
    expect(mock.doGenerateCalls[0]?.prompt).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look:' },
          { type: 'file', mediaType: 'image/png', data: 'AQ==' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'Think.', providerOptions: { openai: { itemId: 'rs_1' } } },
          {
            type: 'tool-call',
            toolCallId: 't1',
            toolName: 'get_weather',
            input: { city: 'Oslo' },
            providerOptions: { google: { thoughtSignature: 'ts' } },
          },
          { type: 'tool-call', toolCallId: 't2', toolName: 'get_weather', input: { city: 'Lima' } },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 't1',
            toolName: 'get_weather',
            output: { type: 'json', value: { sky: 'clear' } },
          },
          {
            type: 'tool-result',
            toolCallId: 't2',
            toolName: 'get_weather',
            output: { type: 'error-text', value: 'no station' },
          },
        ],
      },
    ]);
    const error = await fromAiSdk(mock)
      .generate([systemMessage([{ type: 'audio', mediaType: 'audio/wav', url: 'https://x/a.wav' }])])
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnsupportedPartError);
    expect(error).toMatchObject({ part: 'audio', role: 'system' });
  });

  it('streams reasoning, text and tool inputs split across deltas into one message', async () => {
    const mock = new MockLanguageModelV3({
      doStream: streamOf([
        { type: 'stream-start', warnings: [] },
        { type: 'reasoning-start', id: 'r0' },
        { type: 'reasoning-delta', id: 'r0', delta: 'Two ' },
        { type: 'reasoning-delta', id: 'r0', delta: 'calls.' },
        { type: 'reasoning-end', id: 'r0', providerMetadata: { anthropic: { signature: 'sig' } } },
        { type: 'text-start', id: 'x' },
        { type: 'text-delta', id: 'x', delta: 'Check' },
        { type: 'text-delta', id: 'x', delta: 'ing.' },
        { type: 'text-end', id: 'x' },
        { type: 'tool-input-start', id: 'call_a', toolName: 'get_weather' },
        { type: 'tool-input-delta', id: 'call_a', delta: '{"ci' },
        { type: 'tool-input-delta', id: 'call_a', delta: 'ty":"Oslo"}' },
        { type: 'tool-input-end', id: 'call_a' },
        { type: 'tool-call', toolCallId: 'call_a', toolName: 'get_weather', input: '{"city":"Oslo"}' },
        { type: 'tool-call', toolCallId: 'call_b', toolName: 'get_weather', input: '{"city":"Lima"}' },
        { type: 'finish', usage: usageV3, finishReason: { unified: 'tool-calls', raw: 'tool_calls' } },
      ]),
    });
    const message = concatMessageChunks(
      await drain(fromAiSdk(mock).stream([userMessage('Weather?')], { tools: [weatherSpec] })),
    );
    expect(message).toEqual({
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'Two calls.', providerMetadata: { anthropic: { signature: 'sig' } } },
        { type: 'text', text: 'Checking.' },
      ],
      toolCalls: [
        { id: 'call_a', name: 'get_weather', arguments: '{"city":"Oslo"}' },
        { id: 'call_b', name: 'get_weather', arguments: '{"city":"Lima"}' },
      ],
      usage: {
        inputTokens: 120,
        outputTokens: 30,
        totalTokens: 150,
        cachedInputTokens: 100,
        reasoningTokens: 20,
      },
      finishReason: 'tool-calls',
    });
  });

  it('turns an error part and a thrown APICallError-shaped error into ModelErrors that withRetry retries', async () => {
    let calls = 0;
    const mock = new MockLanguageModelV3({
      doGenerate: async () => {
        calls++;
        if (calls === 1)
          throw Object.assign(new Error('rate limited'), {
            statusCode: 429,
            isRetryable: true,
            responseHeaders: { 'retry-after': '0' },
          });
        return {
          content: [{ type: 'text', text: 'fine' }],
          finishReason: { unified: 'stop', raw: undefined },
          usage: usageV3,
          warnings: [],
        };
      },
      doStream: streamOf([{ type: 'error', error: new Error('boom') }]),
    });
    const reply = await withRetry(fromAiSdk(mock), { initialDelayMs: 1, jitter: 0 }).generate([
      userMessage('x'),
    ]);
    expect(reply.content).toBe('fine');
    expect(calls).toBe(2);
    const error = await drain(fromAiSdk(mock).stream([userMessage('x')])).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as Error).message).toContain('boom');
  });

  it('passes the abort signal and reports ABORTED', async () => {
    const mock = new MockLanguageModelV3({
      doGenerate: async (options) => {
        await new Promise((_, reject) =>
          options.abortSignal?.addEventListener('abort', () => reject(options.abortSignal?.reason)),
        );
        throw new Error('unreachable');
      },
    });
    const controller = new AbortController();
    const pending = fromAiSdk(mock).generate([userMessage('x')], { signal: controller.signal });
    controller.abort();
    const error = await pending.catch((caught: unknown) => caught);
    expect(WeftError.isInstance(error) && error.code).toBe('ABORTED');
  });
});

describe('fromAiSdk argument checks', () => {
  it('refuses something that is not a language model, saying what to pass', () => {
    const notAModel = { provider: 'x', modelId: 'y' } as unknown as LanguageModelV2;
    expect(() => fromAiSdk(notAModel)).toThrow(AdkError);
    expect(() => fromAiSdk(notAModel)).toThrow(/needs doGenerate and doStream/);
  });
});

describe('fromAiSdk with a v2 model', () => {
  it('reads flat v2 usage and string finish reasons', async () => {
    const v2: LanguageModelV2 = {
      specificationVersion: 'v2',
      provider: 'legacy',
      modelId: 'old',
      supportedUrls: {},
      doGenerate: async () => ({
        content: [{ type: 'text', text: 'v2 says hi' }],
        finishReason: 'stop',
        usage: { inputTokens: 7, outputTokens: 3, totalTokens: 10, reasoningTokens: 1, cachedInputTokens: 2 },
        warnings: [],
      }),
      doStream: async () => ({
        stream: simulateReadableStream({
          chunks: [
            { type: 'text-delta' as const, id: '0', delta: 'v2 ' },
            { type: 'text-delta' as const, id: '0', delta: 'streams' },
            {
              type: 'finish' as const,
              finishReason: 'length' as const,
              usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 },
            },
          ],
          initialDelayInMs: null,
          chunkDelayInMs: null,
        }),
      }),
    };
    const model = fromAiSdk(v2);
    expect(await model.generate([userMessage('x')])).toEqual({
      role: 'assistant',
      content: 'v2 says hi',
      usage: { inputTokens: 7, outputTokens: 3, totalTokens: 10, cachedInputTokens: 2, reasoningTokens: 1 },
      finishReason: 'stop',
    });
    const streamed = concatMessageChunks(await drain(model.stream([userMessage('x')])));
    expect(streamed).toEqual({
      role: 'assistant',
      content: 'v2 streams',
      usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 },
      finishReason: 'length',
    });
  });
});

describe('fromAiSdk: which provider and model, for traces', () => {
  it('names the provider as the GenAI conventions do, the model id sent, and the model that answered', async () => {
    const google = new MockLanguageModelV3({
      provider: 'google.generative-ai',
      modelId: 'gemini-2.5-flash',
      doGenerate: {
        content: [{ type: 'text', text: 'Hi.' }],
        finishReason: { unified: 'stop', raw: 'STOP' },
        usage: usageV3,
        warnings: [],
        response: { id: 'r', modelId: 'gemini-2.5-flash-001' },
      },
      doStream: streamOf([
        { type: 'response-metadata', id: 'r', modelId: 'gemini-2.5-flash-002' },
        { type: 'text-start', id: '0' },
        { type: 'text-delta', id: '0', delta: 'Hi.' },
        { type: 'text-end', id: '0' },
        { type: 'finish', finishReason: { unified: 'stop', raw: 'STOP' }, usage: usageV3 },
      ]),
    });
    const model = fromAiSdk(google);
    expect([model.provider, model.modelId]).toEqual(['gcp.gemini', 'gemini-2.5-flash']);
    expect((await model.generate([userMessage('Hi')])).modelId).toBe('gemini-2.5-flash-001');
    expect(concatMessageChunks(await drain(model.stream([userMessage('Hi')]))).modelId).toBe(
      'gemini-2.5-flash-002',
    );
    expect(fromAiSdk(google, { provider: 'my-gateway' }).provider).toBe('my-gateway');
    const mistral = new MockLanguageModelV3({ provider: 'mistral.chat', modelId: 'mistral-small' });
    expect(fromAiSdk(mistral).provider).toBe('mistral_ai');
    // wrappers keep what they wrap
    expect([withRetry(model).provider, withRetry(model).modelId]).toEqual(['gcp.gemini', 'gemini-2.5-flash']);
  });
});
