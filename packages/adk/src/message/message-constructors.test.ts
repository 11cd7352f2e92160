import { describe, expect, it } from 'vitest';
import { assistantMessage, systemMessage, toolMessage, userMessage } from './message-constructors.js';
import { messageText } from './message-text.js';

describe('message constructors', () => {
  it('build messages of each role, adding only the fields given', () => {
    expect(systemMessage('Be brief.')).toEqual({ role: 'system', content: 'Be brief.' });
    expect(userMessage('Hi', { id: 'u1' })).toEqual({ role: 'user', content: 'Hi', id: 'u1' });
    expect(assistantMessage('Hello')).toEqual({ role: 'assistant', content: 'Hello' });
    expect(toolMessage('3', { toolCallId: 'call_1', name: 'add' })).toEqual({
      role: 'tool',
      content: '3',
      toolCallId: 'call_1',
      name: 'add',
    });
  });

  it('put tool calls and usage on assistant messages, leaving out an empty tool-call list', () => {
    const call = { id: 'call_1', name: 'add', arguments: '{}' };
    const usage = { inputTokens: 1, outputTokens: 2, totalTokens: 3 };
    expect(assistantMessage('', { toolCalls: [call], usage })).toEqual({
      role: 'assistant',
      content: '',
      toolCalls: [call],
      usage,
    });
    expect(assistantMessage('x', { toolCalls: [] })).not.toHaveProperty('toolCalls');
  });

  it('keeps one key order, the id last, as stored and serialized', () => {
    const call = { id: 'call_1', name: 'add', arguments: '{}' };
    const usage = { inputTokens: 1, outputTokens: 2, totalTokens: 3 };
    const reply = assistantMessage('x', {
      id: 'm1',
      providerMetadata: { openai: { p: 1 } },
      finishReason: 'tool-calls',
      usage,
      toolCalls: [call],
    });
    expect(Object.keys(reply)).toEqual([
      'role',
      'content',
      'toolCalls',
      'usage',
      'finishReason',
      'providerMetadata',
      'id',
    ]);
    const result = toolMessage('3', { id: 't1', status: 'error', toolCallId: 'call_1', name: 'add' });
    expect(Object.keys(result)).toEqual(['role', 'content', 'toolCallId', 'name', 'status', 'id']);
    expect(Object.keys(userMessage('q', { id: 'u1' }))).toEqual(['role', 'content', 'id']);
  });

  it('makes a new object per call: a message never shares fields it did not ask for', () => {
    const first = assistantMessage('a', { usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } });
    const second = assistantMessage('b');
    expect(first).not.toBe(second);
    expect(second).toEqual({ role: 'assistant', content: 'b' });
    expect(Object.keys(second)).toEqual(['role', 'content']);
  });
});

describe('messageText', () => {
  it('returns string content as is', () => {
    expect(messageText(userMessage('plain'))).toBe('plain');
  });

  it('joins text parts, writes JSON parts as JSON and skips images', () => {
    const message = userMessage([
      { type: 'text', text: 'See ' },
      { type: 'image', url: 'https://example.com/a.png' },
      { type: 'json', value: { a: [1, null] } },
    ]);
    expect(messageText(message)).toBe('See {"a":[1,null]}');
  });
});
