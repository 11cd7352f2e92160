import { describe, expect, test } from 'vitest';
import type { Message } from '../message/message.js';
import { assistantMessage, toolMessage, userMessage } from '../message/message-constructors.js';
import { messageText } from '../message/message-text.js';
import { latestResultsView } from './latest-results-view.js';

const call = (id: string) => ({ id, name: 'job', arguments: '{}' });
const result = (id: string, text: string) => toolMessage(text, { toolCallId: id, name: 'job' });
const texts = (messages: readonly Message[]) =>
  messages.map((m) =>
    m.role === 'assistant' && m.toolCalls?.length ? `calls ${m.toolCalls.map((c) => c.id)}` : messageText(m),
  );

describe('latestResultsView', () => {
  test('a history whose results follow their calls once is returned as it is', () => {
    const messages = [
      userMessage('go'),
      assistantMessage('', { toolCalls: [call('a'), call('b')] }),
      result('a', 'A'),
      result('b', 'B'),
      assistantMessage('done'),
    ];
    expect(latestResultsView(messages)).toBe(messages);
  });

  test('results sent in later: the call, then its latest result; the replies in between kept after it', () => {
    const messages = [
      userMessage('go'),
      assistantMessage('', { toolCalls: [call('a'), call('b')] }),
      result('a', 'A pending'),
      result('b', 'B'),
      assistantMessage('waiting on A'),
      result('a', 'A done'),
      assistantMessage('A is done'),
      userMessage('thanks'),
    ];
    expect(texts(latestResultsView(messages))).toEqual([
      'go',
      'calls a,b',
      'A done',
      'B',
      'waiting on A',
      'A is done',
      'thanks',
    ]);
  });

  test('a conversation ending with a late result: the messages since its call are left out, its siblings kept', () => {
    const messages = [
      userMessage('go'),
      assistantMessage('', { toolCalls: [call('a'), call('b')] }),
      result('a', 'A pending'),
      result('b', 'B'),
      assistantMessage('waiting on A'),
      result('a', 'A done'),
    ];
    expect(texts(latestResultsView(messages))).toEqual(['go', 'calls a,b', 'A done', 'B']);
  });

  test('a result whose call is not in the conversation stays where it is', () => {
    const messages = [
      userMessage('go'),
      result('x', 'orphan'),
      assistantMessage('', { toolCalls: [call('a')] }),
      result('a', 'A'),
      result('a', 'A2'),
    ];
    expect(texts(latestResultsView(messages))).toEqual(['go', 'orphan', 'calls a', 'A2']);
  });
});
