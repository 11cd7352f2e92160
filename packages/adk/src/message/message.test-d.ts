import { describe, expectTypeOf, it } from 'vitest';
import type {
  AssistantMessage,
  AudioPart,
  ContentPart,
  ContentPartType,
  FilePart,
  ImagePart,
  Message,
  ToolCall,
  ToolMessage,
  Usage,
} from './message.js';
import { toolMessage } from './message-constructors.js';
import type { MessagesUpdate } from './messages-reducer.js';
import { removeMessage } from './messages-reducer.js';

describe('Message', () => {
  it('narrows by role', () => {
    const message = {} as Message;
    if (message.role === 'assistant')
      expectTypeOf(message.toolCalls).toEqualTypeOf<readonly ToolCall[] | undefined>();
    if (message.role === 'tool') expectTypeOf(message.toolCallId).toEqualTypeOf<string>();
    // @ts-expect-error tool calls exist on assistant messages only
    message.toolCalls;
  });

  it('requires the tool call id and name of tool messages', () => {
    expectTypeOf(toolMessage('ok', { toolCallId: 'c', name: 'add' })).toEqualTypeOf<ToolMessage>();
    // @ts-expect-error toolCallId is required
    toolMessage('ok', { name: 'add' });
    // @ts-expect-error a tool message needs its role-specific fields
    const broken: ToolMessage = { role: 'tool', content: 'x' };
    void broken;
  });

  it('accepts only assistant-shaped usage', () => {
    const message: AssistantMessage = {
      role: 'assistant',
      content: '',
      usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
    };
    void message;
    // @ts-expect-error usage needs all three counts
    const partial: AssistantMessage = { role: 'assistant', content: '', usage: { inputTokens: 1 } };
    void partial;
  });
});

describe('MessagesUpdate', () => {
  it('accepts messages, markers and lists of them', () => {
    expectTypeOf([
      removeMessage('a'),
      { role: 'user', content: 'x' } as const,
    ]).toMatchTypeOf<MessagesUpdate>();
    // @ts-expect-error a bare string is not a message
    const wrong: MessagesUpdate = 'hello';
    void wrong;
  });
});

describe('media and reasoning parts', () => {
  it('takes a URL or inline data, never both, and needs a media type for files and audio', () => {
    const byUrl: ImagePart = { type: 'image', url: 'https://example.com/a.png' };
    const inline: FilePart = { type: 'file', mediaType: 'application/pdf', data: 'JVBERi0=' };
    void [byUrl, inline];
    // @ts-expect-error a part holds a URL or data, not both
    const both: ImagePart = { type: 'image', url: 'u', data: 'd' };
    // @ts-expect-error an audio part needs its media type
    const untyped: AudioPart = { type: 'audio', data: 'd' };
    void [both, untyped];
  });

  it('narrows content parts by type, reasoning included', () => {
    const part = {} as ContentPart;
    if (part.type === 'reasoning') expectTypeOf(part.signature).toEqualTypeOf<string | undefined>();
    if (part.type === 'file') expectTypeOf(part.mediaType).toEqualTypeOf<string>();
    expectTypeOf<ContentPartType>().toEqualTypeOf<
      'text' | 'image' | 'file' | 'audio' | 'json' | 'reasoning'
    >();
  });

  it('keeps cached and reasoning counts optional in usage', () => {
    const usage: Usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2, cachedInputTokens: 1 };
    void usage;
    // @ts-expect-error counts are numbers
    const wrong: Usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2, reasoningTokens: '3' };
    void wrong;
  });
});
