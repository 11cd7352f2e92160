import { WeftError } from '@weft/compose';
import { afterEach, describe, expect, it } from 'vitest';
import { ModelError } from '../../errors/model-error.js';
import { concatMessageChunks, type MessageChunk } from '../../message/message-chunk.js';
import {
  assistantMessage,
  systemMessage,
  toolMessage,
  userMessage,
} from '../../message/message-constructors.js';
import { drain } from '../../testing/drain.js';
import {
  type OpenAICompatibleServer,
  type ServerScript,
  startOpenAICompatibleServer,
} from '../../testing/openai-compatible-server.js';
import { withRetry } from '../with-retry.js';
import { OpenAIChatModel } from './openai-chat-model.js';

let server: OpenAICompatibleServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function modelFor(script: ServerScript, chunkSize?: number) {
  server = await startOpenAICompatibleServer({ script, ...(chunkSize === undefined ? {} : { chunkSize }) });
  return new OpenAIChatModel({ baseURL: server.baseURL, apiKey: 'test-key', model: 'test-model', env: {} });
}

const weatherSpec = {
  name: 'get_weather',
  description: 'Weather of a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

describe('OpenAIChatModel.generate', () => {
  it('sends the conversation and returns the text answer with usage', async () => {
    const model = await modelFor([
      { text: 'Hello there!', usage: { inputTokens: 9, outputTokens: 3, totalTokens: 12 } },
    ]);
    const reply = await model.generate([systemMessage('Be brief.'), userMessage('Hi')], {
      temperature: 0,
      maxTokens: 50,
    });
    expect(reply).toEqual({
      role: 'assistant',
      content: 'Hello there!',
      usage: { inputTokens: 9, outputTokens: 3, totalTokens: 12 },
      finishReason: 'stop',
      modelId: 'test-model',
    });
    expect(model.name).toBe('openai:test-model');
    expect([model.provider, model.modelId]).toEqual(['openai', 'test-model']);
    const request = server?.requests[0];
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe('Bearer test-key');
    expect(request?.body).toMatchObject({
      model: 'test-model',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
      ],
      temperature: 0,
      max_tokens: 50,
    });
    expect(request?.body.stream).toBeUndefined();
  });

  it('sends tools and tool choice, and returns tool calls', async () => {
    const model = await modelFor([
      { toolCalls: [{ id: 'call_9', name: 'get_weather', arguments: { city: 'Oslo' } }] },
    ]);
    const reply = await model.generate([userMessage('Weather in Oslo?')], {
      tools: [weatherSpec],
      toolChoice: { name: 'get_weather' },
    });
    expect(reply.toolCalls).toEqual([{ id: 'call_9', name: 'get_weather', arguments: '{"city":"Oslo"}' }]);
    expect(server?.requests[0]?.body).toMatchObject({
      tools: [{ type: 'function', function: weatherSpec }],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
    });
  });

  it('sends a tool round trip in OpenAI format', async () => {
    const model = await modelFor(['It is sunny.']);
    const call = { id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' };
    await model.generate([
      userMessage('Weather?'),
      assistantMessage('', { toolCalls: [call] }),
      toolMessage([{ type: 'json', value: { sky: 'clear' } }], { toolCallId: 'call_1', name: 'get_weather' }),
    ]);
    expect(server?.requests[0]?.body.messages).toEqual([
      { role: 'user', content: 'Weather?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"sky":"clear"}' },
    ]);
  });

  it('asks for structured output with a JSON schema', async () => {
    const model = await modelFor([{ text: '{"answer":"42"}' }]);
    const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] };
    const reply = await model.generate([userMessage('Meaning of life?')], {
      responseFormat: { type: 'json_schema', name: 'answer', schema, strict: true },
    });
    expect(JSON.parse(reply.content as string)).toEqual({ answer: '42' });
    expect(server?.requests[0]?.body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'answer', schema, strict: true },
    });
  });

  it('maps HTTP errors to ModelError with status and retryable flag', async () => {
    const model = await modelFor([
      { error: { status: 400, message: 'bad request body' } },
      { error: { status: 429, message: 'slow down', headers: { 'retry-after': '2' } } },
    ]);
    const badRequest = await model.generate([userMessage('x')]).catch((error: unknown) => error);
    expect(badRequest).toBeInstanceOf(ModelError);
    expect(badRequest).toMatchObject({ code: 'MODEL_ERROR', status: 400, retryable: false });
    expect((badRequest as Error).message).toContain('bad request body');
    const rateLimited = await model.generate([userMessage('x')]).catch((error: unknown) => error);
    expect(rateLimited).toMatchObject({ status: 429, retryable: true, retryAfterMs: 2000 });
  });

  it('reports an unreachable server as a retryable ModelError without status', async () => {
    const probe = await startOpenAICompatibleServer({ script: [] });
    const baseURL = probe.baseURL;
    await probe.close();
    const model = new OpenAIChatModel({ baseURL, apiKey: 'k', model: 'm', env: {} });
    const error = await model.generate([userMessage('x')]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ status: undefined, retryable: true });
  });
});

describe('OpenAIChatModel with withRetry', () => {
  it('retries 429 and 500 through the real client and succeeds', async () => {
    const model = await modelFor([{ error: { status: 429 } }, { error: { status: 500 } }, 'finally']);
    const reply = await withRetry(model, { initialDelayMs: 1, maxDelayMs: 5, jitter: 0 }).generate([
      userMessage('x'),
    ]);
    expect(reply.content).toBe('finally');
    expect(server?.requests).toHaveLength(3);
  });

  it('retries a stream whose request failed before any chunk', async () => {
    const model = await modelFor([{ error: { status: 503 } }, 'streamed']);
    const chunks = await drain(withRetry(model, { initialDelayMs: 1, jitter: 0 }).stream([userMessage('x')]));
    expect(concatMessageChunks(chunks).content).toBe('streamed');
    expect(server?.requests).toHaveLength(2);
  });
});

describe('OpenAIChatModel.stream', () => {
  it('streams text in several chunks and reports usage (stream_options.include_usage)', async () => {
    const model = await modelFor(['The quick brown fox'], 4);
    const chunks = await drain(model.stream([userMessage('Tell me')]));
    const texts = chunks.filter((chunk) => chunk.text !== undefined);
    expect(texts.length).toBeGreaterThan(3);
    const message = concatMessageChunks(chunks);
    expect(message.content).toBe('The quick brown fox');
    expect(message.usage?.totalTokens).toBeGreaterThan(0);
    expect(server?.requests[0]?.body).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('streams text first and then tool calls whose arguments arrive in fragments', async () => {
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
    const deltas = chunks.flatMap((chunk) => chunk.toolCallDeltas ?? []);
    expect(deltas.filter((delta) => delta.index === 0).length).toBeGreaterThan(2);
    const message = concatMessageChunks(chunks);
    expect(message.content).toBe('Checking both.');
    expect(message.toolCalls).toEqual([
      { id: 'call_a', name: 'get_weather', arguments: '{"city":"Oslo"}' },
      { id: 'call_b', name: 'get_weather', arguments: '{"city":"Lima"}' },
    ]);
  });

  it('stops mid-stream on abort with an ABORTED error and closes the connection', async () => {
    const model = await modelFor([{ text: 'a long answer that never ends', stallAfterChunks: 3 }], 2);
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

  it('rejects generate with ABORTED when the signal already fired', async () => {
    const model = await modelFor(['unused']);
    const error = await model
      .generate([userMessage('x')], { signal: AbortSignal.abort() })
      .catch((caught: unknown) => caught);
    expect(WeftError.isInstance(error) && error.code).toBe('ABORTED');
  });
});

describe('OpenAIChatModel configuration', () => {
  it('reads model, base URL and key from the environment', async () => {
    server = await startOpenAICompatibleServer({ script: ['from env'] });
    const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'env-key', OPENAI_MODEL: 'env-model' };
    const model = new OpenAIChatModel({ env });
    expect(model.model).toBe('env-model');
    await expect(model.generate([userMessage('x')])).resolves.toMatchObject({ content: 'from env' });
    expect(server.requests[0]?.headers.authorization).toBe('Bearer env-key');
    expect(server.requests[0]?.body.model).toBe('env-model');
  });

  it('needs a model and, for the default endpoint, an API key', () => {
    expect(() => new OpenAIChatModel({ env: {} })).toThrow(/no model/);
    expect(() => new OpenAIChatModel({ model: 'gpt', env: {} })).toThrow(/no API key/);
    expect(
      () => new OpenAIChatModel({ model: 'llama', baseURL: 'http://127.0.0.1:1/v1', env: {} }),
    ).not.toThrow();
  });

  it('can send max_completion_tokens instead of max_tokens, and skip stream usage', async () => {
    server = await startOpenAICompatibleServer({ script: ['a', 'b'] });
    const model = new OpenAIChatModel({
      baseURL: server.baseURL,
      apiKey: 'k',
      model: 'm',
      maxTokensParameter: 'max_completion_tokens',
      streamUsage: false,
      env: {},
    });
    await model.generate([userMessage('x')], { maxTokens: 7, stop: ['END'] });
    expect(server.requests[0]?.body).toMatchObject({ max_completion_tokens: 7, stop: ['END'] });
    expect(server.requests[0]?.body).not.toHaveProperty('max_tokens');
    const chunks = await drain(model.stream([userMessage('x')]));
    expect(concatMessageChunks(chunks).usage).toBeUndefined();
    expect(server.requests[1]?.body).not.toHaveProperty('stream_options');
  });
});
