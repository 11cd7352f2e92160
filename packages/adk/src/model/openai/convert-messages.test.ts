import { describe, expect, it } from 'vitest';
import { AdkError } from '../../errors/adk-error.js';
import { UnsupportedPartError } from '../../errors/unsupported-part-error.js';
import { mediaPart } from '../../message/media-part.js';
import type { Message } from '../../message/message.js';
import {
  assistantMessage,
  systemMessage,
  toolMessage,
  userMessage,
} from '../../message/message-constructors.js';
import { fromOpenAIChunk, fromOpenAICompletion } from './convert-response.js';
import { fromOpenAIMessages } from './from-openai-messages.js';
import type { OpenAIChunk, OpenAICompletion } from './openai-types.js';
import { toOpenAIMessages } from './to-openai-messages.js';

const call = { id: 'call_1', name: 'add', arguments: '{"a":1,"b":2}' };

describe('toOpenAIMessages / fromOpenAIMessages', () => {
  it('round-trips a conversation with tool calls', () => {
    const history: Message[] = [
      systemMessage('Be brief.'),
      userMessage('1+2?'),
      assistantMessage('Adding.', { toolCalls: [call] }),
      toolMessage('3', { toolCallId: 'call_1', name: 'add' }),
      assistantMessage('3'),
    ];
    const openai = toOpenAIMessages(history);
    expect(openai[2]).toEqual({
      role: 'assistant',
      content: 'Adding.',
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'add', arguments: '{"a":1,"b":2}' } }],
    });
    expect(fromOpenAIMessages(openai)).toEqual(history);
  });

  it('sends user images as image_url parts and JSON parts as text', () => {
    const [user] = toOpenAIMessages([
      userMessage([
        { type: 'text', text: 'What is this?' },
        { type: 'image', url: 'https://example.com/cat.png', detail: 'low' },
        { type: 'json', value: { hint: 'animal' } },
      ]),
    ]);
    expect(user).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'What is this?' },
        { type: 'image_url', image_url: { url: 'https://example.com/cat.png', detail: 'low' } },
        { type: 'text', text: '{"hint":"animal"}' },
      ],
    });
    expect(fromOpenAIMessages([user!])).toEqual([
      userMessage([
        { type: 'text', text: 'What is this?' },
        { type: 'image', url: 'https://example.com/cat.png', detail: 'low' },
        { type: 'text', text: '{"hint":"animal"}' },
      ]),
    ]);
  });

  it('refuses images outside user messages, naming the role', () => {
    const image = [{ type: 'image', url: 'https://example.com/a.png' }] as const;
    expect(() => toOpenAIMessages([toolMessage(image, { toolCallId: 'c', name: 't' })])).toThrow(
      /cannot send a image part in a tool message/,
    );
    expect(() => toOpenAIMessages([systemMessage(image)])).toThrow(AdkError);
    const error = (() => {
      try {
        return toOpenAIMessages([systemMessage(image)], 'openai:gpt-x');
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(UnsupportedPartError);
    expect(error).toMatchObject({
      code: 'UNSUPPORTED_PART',
      part: 'image',
      role: 'system',
      model: 'openai:gpt-x',
    });
  });

  it('sends inline images as data URLs, files and wav/mp3 audio as bytes, and leaves reasoning out', () => {
    const [user] = toOpenAIMessages([
      userMessage([
        { type: 'reasoning', text: 'private' },
        mediaPart({ type: 'image', mediaType: 'image/png', bytes: new Uint8Array([1, 2]) }),
        mediaPart({
          type: 'file',
          mediaType: 'application/pdf',
          bytes: new Uint8Array([3]),
          filename: 'a.pdf',
        }),
        mediaPart({ type: 'audio', mediaType: 'audio/wav', bytes: new Uint8Array([4]) }),
      ]),
    ]);
    expect(user).toEqual({
      role: 'user',
      content: [
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AQI=' } },
        { type: 'file', file: { file_data: 'data:application/pdf;base64,Aw==', filename: 'a.pdf' } },
        { type: 'input_audio', input_audio: { data: 'BA==', format: 'wav' } },
      ],
    });
  });

  it('names the part it cannot send: a file by URL, audio that is not wav or mp3', () => {
    const byUrl = userMessage([{ type: 'file', mediaType: 'application/pdf', url: 'https://x/a.pdf' }]);
    expect(() => toOpenAIMessages([byUrl])).toThrow(/cannot send a file part in a user message; .*by URL/);
    const ogg = userMessage([
      mediaPart({ type: 'audio', mediaType: 'audio/ogg', bytes: new Uint8Array([1]) }),
    ]);
    expect(() => toOpenAIMessages([ogg])).toThrow(/audio part .* not audio\/ogg/);
  });

  it('reads developer messages as system messages and refuses legacy function messages', () => {
    expect(fromOpenAIMessages([{ role: 'developer', content: 'rules' }])).toEqual([systemMessage('rules')]);
    expect(() => fromOpenAIMessages([{ role: 'function', name: 'f', content: 'x' }])).toThrow(
      /role "function"/,
    );
  });
});

describe('fromOpenAICompletion / fromOpenAIChunk', () => {
  const completion = (message: OpenAICompletion['choices'][number]['message']): OpenAICompletion => ({
    id: 'x',
    object: 'chat.completion',
    created: 0,
    model: 'm',
    choices: [{ index: 0, finish_reason: 'stop', logprobs: null, message }],
    usage: { prompt_tokens: 4, completion_tokens: 2, total_tokens: 6 },
  });

  it('converts the first choice with usage and the model that answered, and a refusal as text', () => {
    expect(fromOpenAICompletion(completion({ role: 'assistant', content: 'hi', refusal: null }))).toEqual({
      role: 'assistant',
      content: 'hi',
      usage: { inputTokens: 4, outputTokens: 2, totalTokens: 6 },
      finishReason: 'stop',
      modelId: 'm',
    });
    expect(
      fromOpenAICompletion(completion({ role: 'assistant', content: null, refusal: 'I cannot.' })).content,
    ).toBe('I cannot.');
  });

  it('reads cached prompt tokens and reasoning tokens into the usage', () => {
    const reply = fromOpenAICompletion({
      ...completion({ role: 'assistant', content: 'ok', refusal: null }),
      usage: {
        prompt_tokens: 100,
        completion_tokens: 40,
        total_tokens: 140,
        prompt_tokens_details: { cached_tokens: 64 },
        completion_tokens_details: { reasoning_tokens: 30 },
      },
    });
    expect(reply.usage).toEqual({
      inputTokens: 100,
      outputTokens: 40,
      totalTokens: 140,
      cachedInputTokens: 64,
      reasoningTokens: 30,
    });
  });

  it('fails with a ModelError when there are no choices', () => {
    expect(() =>
      fromOpenAICompletion({ ...completion({ role: 'assistant', content: '', refusal: null }), choices: [] }),
    ).toThrow(/no choices/);
  });

  it('converts chunks, skipping those that carry nothing; the closing ones name the model', () => {
    const chunk = (delta: OpenAIChunk['choices'][number]['delta']): OpenAIChunk => ({
      id: 'x',
      object: 'chat.completion.chunk',
      created: 0,
      model: 'm',
      choices: [{ index: 0, delta, finish_reason: null }],
    });
    expect(fromOpenAIChunk(chunk({ role: 'assistant', content: '' }))).toBeUndefined();
    expect(fromOpenAIChunk(chunk({ content: 'Hel' }))).toEqual({ text: 'Hel' });
    expect(
      fromOpenAIChunk(
        chunk({
          tool_calls: [{ index: 1, id: 'c', type: 'function', function: { name: 'f', arguments: '' } }],
        }),
      ),
    ).toEqual({ toolCallDeltas: [{ index: 1, id: 'c', name: 'f', arguments: '' }] });
    expect(
      fromOpenAIChunk({
        ...chunk({}),
        choices: [],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      }),
    ).toEqual({
      usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
      modelId: 'm',
    });
  });
});
