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
import { drain } from '../../testing/drain.js';
import type { LoopbackServer } from '../../testing/loopback-http.js';
import {
  type ResponsesServerOptions,
  startOpenAIResponsesServer,
} from '../../testing/openai-responses-server.js';
import { withRetry } from '../with-retry.js';
import { OpenAIChatModel, type OpenAIChatModelOptions } from './openai-chat-model.js';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function modelFor(options: ResponsesServerOptions, settings: OpenAIChatModelOptions = {}) {
  server = await startOpenAIResponsesServer(options);
  return new OpenAIChatModel({
    baseURL: `${server.url}/v1`,
    apiKey: 'test-key',
    model: 'gpt-test',
    api: 'responses',
    env: {},
    ...settings,
  });
}

const weatherSpec = {
  name: 'get_weather',
  description: 'Weather of a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

describe('OpenAIChatModel with api: responses', () => {
  it('sends a stateless request with tools, and maps text, usage and finish reason', async () => {
    const model = await modelFor({
      script: [{ text: 'Hello!', usage: { input: 50, output: 8, cached: 32, reasoning: 4 } }],
    });
    const reply = await model.generate([systemMessage('Be brief.'), userMessage('Hi')], {
      tools: [weatherSpec],
      toolChoice: { name: 'get_weather' },
      temperature: 0,
      maxTokens: 64,
    });
    expect(reply).toEqual({
      role: 'assistant',
      content: 'Hello!',
      usage: { inputTokens: 50, outputTokens: 8, totalTokens: 58, cachedInputTokens: 32, reasoningTokens: 4 },
      finishReason: 'stop',
      providerMetadata: { openai: { responseId: 'resp_0' } },
      modelId: 'gpt-test',
    });
    const request = server?.requests[0];
    expect(request?.path).toBe('/v1/responses');
    expect(request?.body).toEqual({
      model: 'gpt-test',
      input: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
      ],
      store: false,
      tools: [
        {
          type: 'function',
          name: 'get_weather',
          description: 'Weather of a city',
          parameters: weatherSpec.parameters,
          strict: false,
        },
      ],
      tool_choice: { type: 'function', name: 'get_weather' },
      temperature: 0,
      max_output_tokens: 64,
    });
    expect(request?.body).not.toHaveProperty('previous_response_id');
  });

  it('keeps reasoning items (summary, id, encrypted content) and sends them back with function calls and outputs', async () => {
    const model = await modelFor(
      {
        script: [
          {
            reasoning: { summary: ['Need the weather.', 'Then answer.'], encrypted: 'enc-1' },
            toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } }],
          },
          'Cold.',
        ],
      },
      { reasoning: { effort: 'low', summary: 'auto' } },
    );
    const first = await model.generate([userMessage('Weather in Oslo?')], { tools: [weatherSpec] });
    expect(first.content).toEqual([
      {
        type: 'reasoning',
        text: 'Need the weather.\n\nThen answer.',
        providerMetadata: { openai: { itemId: 'rs_0', encryptedContent: 'enc-1' } },
      },
    ]);
    expect(first.toolCalls).toEqual([
      {
        id: 'call_1',
        name: 'get_weather',
        arguments: '{"city":"Oslo"}',
        providerMetadata: { openai: { itemId: 'fc_0_0' } },
      },
    ]);
    expect(first.finishReason).toBe('tool-calls');
    expect(server?.requests[0]?.body).toMatchObject({
      reasoning: { effort: 'low', summary: 'auto' },
      include: ['reasoning.encrypted_content'],
    });
    await model.generate(
      [
        userMessage('Weather in Oslo?'),
        first,
        toolMessage([{ type: 'json', value: { celsius: 4 } }], { toolCallId: 'call_1', name: 'get_weather' }),
      ],
      { tools: [weatherSpec] },
    );
    expect(server?.requests[1]?.body.input).toEqual([
      { role: 'user', content: 'Weather in Oslo?' },
      {
        type: 'reasoning',
        id: 'rs_0',
        summary: [{ type: 'summary_text', text: 'Need the weather.\n\nThen answer.' }],
        encrypted_content: 'enc-1',
      },
      {
        type: 'function_call',
        call_id: 'call_1',
        name: 'get_weather',
        arguments: '{"city":"Oslo"}',
        id: 'fc_0_0',
      },
      { type: 'function_call_output', call_id: 'call_1', output: '{"celsius":4}' },
    ]);
  });

  it('leaves reasoning of other providers out, sends media as input parts, and names parts it cannot send', async () => {
    const model = await modelFor({ script: ['ok'] });
    await model.generate([
      userMessage([
        { type: 'text', text: 'See:' },
        mediaPart({ type: 'image', mediaType: 'image/png', bytes: new Uint8Array([1]) }),
        { type: 'file', mediaType: 'application/pdf', url: 'https://example.com/a.pdf', filename: 'a.pdf' },
      ]),
      assistantMessage([
        { type: 'reasoning', text: 'claude thinking', signature: 'sig' },
        { type: 'text', text: 'Seen.' },
      ]),
    ]);
    expect(server?.requests[0]?.body.input).toEqual([
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'See:' },
          { type: 'input_image', detail: 'auto', image_url: 'data:image/png;base64,AQ==' },
          { type: 'input_file', file_url: 'https://example.com/a.pdf', filename: 'a.pdf' },
        ],
      },
      { role: 'assistant', content: 'Seen.' },
    ]);
    const audio = userMessage([
      mediaPart({ type: 'audio', mediaType: 'audio/wav', bytes: new Uint8Array([1]) }),
    ]);
    await expect(model.generate([audio])).rejects.toBeInstanceOf(UnsupportedPartError);
    await expect(model.generate([userMessage('x')], { stop: ['END'] })).rejects.toThrow(/no stop sequences/);
  });

  it('asks for structured output with text.format and reports a cut-off answer as length', async () => {
    const model = await modelFor({ script: [{ text: '{"answer":"4', incomplete: 'max_output_tokens' }] });
    const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] };
    const reply = await model.generate([userMessage('2+2?')], {
      responseFormat: { type: 'json_schema', name: 'answer', schema, strict: true },
    });
    expect(reply.finishReason).toBe('length');
    expect(server?.requests[0]?.body.text).toEqual({
      format: { type: 'json_schema', name: 'answer', schema, strict: true },
    });
  });

  it('streams reasoning summaries, text and function-call arguments split across deltas', async () => {
    const model = await modelFor(
      {
        script: [
          {
            reasoning: { summary: ['Two cities.'], encrypted: 'enc-S' },
            text: 'Checking both.',
            toolCalls: [
              { id: 'call_a', name: 'get_weather', arguments: { city: 'Oslo' } },
              { id: 'call_b', name: 'get_weather', arguments: { city: 'Lima' } },
            ],
            usage: { input: 10, output: 20, reasoning: 12 },
          },
        ],
        chunkSize: 3,
      },
      { reasoning: { effort: 'low' } },
    );
    const chunks = await drain(model.stream([userMessage('Weather?')], { tools: [weatherSpec] }));
    expect(
      chunks.flatMap((chunk) => chunk.toolCallDeltas ?? []).filter((delta) => delta.index === 2).length,
    ).toBeGreaterThan(2);
    const message = concatMessageChunks(chunks);
    expect(message).toEqual({
      role: 'assistant',
      content: [
        {
          type: 'reasoning',
          text: 'Two cities.',
          providerMetadata: { openai: { itemId: 'rs_0', encryptedContent: 'enc-S' } },
        },
        { type: 'text', text: 'Checking both.' },
      ],
      toolCalls: [
        {
          id: 'call_a',
          name: 'get_weather',
          arguments: '{"city":"Oslo"}',
          providerMetadata: { openai: { itemId: 'fc_0_0' } },
        },
        {
          id: 'call_b',
          name: 'get_weather',
          arguments: '{"city":"Lima"}',
          providerMetadata: { openai: { itemId: 'fc_0_1' } },
        },
      ],
      usage: {
        inputTokens: 10,
        outputTokens: 20,
        totalTokens: 30,
        cachedInputTokens: 0,
        reasoningTokens: 12,
      },
      finishReason: 'tool-calls',
      providerMetadata: { openai: { responseId: 'resp_0' } },
      modelId: 'gpt-test',
    });
    expect(server?.requests[0]?.body.stream).toBe(true);
  });

  it('maps errors, retries 429 and 500 with withRetry, and stops mid-stream on abort', async () => {
    const model = await modelFor({
      script: [
        { error: { status: 400, message: 'bad input' } },
        { error: { status: 429 } },
        { error: { status: 500 } },
        'finally',
        { text: 'a long answer that never ends', stallAfterChunks: 5 },
      ],
    });
    const bad = await model.generate([userMessage('x')]).catch((caught: unknown) => caught);
    expect(bad).toBeInstanceOf(ModelError);
    expect(bad).toMatchObject({ status: 400, retryable: false });
    const reply = await withRetry(model, { initialDelayMs: 1, maxDelayMs: 5, jitter: 0 }).generate([
      userMessage('x'),
    ]);
    expect(reply.content).toBe('finally');
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
