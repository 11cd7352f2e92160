import { describe, expect, it } from 'vitest';
import { AdkError } from '../errors/adk-error.js';
import type { Message } from './message.js';
import { assistantMessage, userMessage } from './message-constructors.js';
import { messagesReducer, removeAllMessages, removeMessage } from './messages-reducer.js';

describe('messagesReducer', () => {
  it('appends messages and gives those without an id a deterministic one', () => {
    const history = messagesReducer([], [userMessage('hi'), assistantMessage('hello', { id: 'a1' })]);
    expect(history).toEqual([
      { role: 'user', content: 'hi', id: 'msg-1' },
      { role: 'assistant', content: 'hello', id: 'a1' },
    ]);
    const next = messagesReducer(history, userMessage('again'));
    expect(next.map((message) => message.id)).toEqual(['msg-1', 'a1', 'msg-2']);
    expect(messagesReducer(history, userMessage('again'))).toEqual(next);
  });

  it('replaces a message with the same id in place', () => {
    const history = messagesReducer(
      [],
      [userMessage('q', { id: 'u' }), assistantMessage('draft', { id: 'a' })],
    );
    const next = messagesReducer(history, [assistantMessage('final', { id: 'a' })]);
    expect(next).toEqual([userMessage('q', { id: 'u' }), assistantMessage('final', { id: 'a' })]);
    const replacedFirst = messagesReducer(next, userMessage('q2', { id: 'u' }));
    expect(replacedFirst.map((message) => message.content)).toEqual(['q2', 'final']);
  });

  it('deletes with removeMessage and clears with removeAllMessages, applying items in order', () => {
    const history = messagesReducer([], [userMessage('1', { id: 'a' }), userMessage('2', { id: 'b' })]);
    expect(messagesReducer(history, removeMessage('a'))).toEqual([userMessage('2', { id: 'b' })]);
    const summary = userMessage('summary', { id: 's' });
    expect(messagesReducer(history, [removeAllMessages(), summary])).toEqual([summary]);
    expect(
      messagesReducer(history, [removeMessage('b'), userMessage('3', { id: 'b' })]).at(-1)?.content,
    ).toBe('3');
  });

  it('rejects removing an id that is not in the history', () => {
    const history = messagesReducer([], userMessage('1', { id: 'a' }));
    expect(() => messagesReducer(history, removeMessage('nope'))).toThrow(AdkError);
    expect(() => messagesReducer(history, removeMessage('nope'))).toThrow(/no message with this id/);
  });

  it('does not mutate its inputs and assigns ids to earlier messages that lack one', () => {
    const current: Message[] = [userMessage('no id')];
    const frozen = Object.freeze([...current]);
    const result = messagesReducer(frozen, assistantMessage('x'));
    expect(current[0]).not.toHaveProperty('id');
    expect(result.map((message) => message.id)).toEqual(['msg-1', 'msg-2']);
  });

  it('never reuses an auto id that is already taken, in the history or in the update', () => {
    const history = messagesReducer([], [userMessage('a', { id: 'msg-7' })]);
    expect(messagesReducer(history, userMessage('b')).at(-1)?.id).toBe('msg-8');
    const update = messagesReducer([], [userMessage('x'), userMessage('y', { id: 'msg-1' })]);
    expect(update.map((message) => message.content)).toEqual(['x', 'y']);
  });
});
