import { describe, expect, test } from 'vitest';
import type { Message } from '../message/message.js';
import { assistantMessage, toolMessage, userMessage } from '../message/message-constructors.js';
import { approximateTokenEstimator } from './token-estimator.js';
import { isContextNote, SUMMARY_ID_PREFIX, splitForCompaction, splitTurns } from './turns.js';

const call = (id: string, name = 'look') => ({ id, name, arguments: '{}' });
const ids = (turns: Message[][]) => turns.map((turn) => turn.map((m) => m.id));

describe('splitTurns', () => {
  test('a tool result stays in the turn of the assistant message that called it', () => {
    const history = [
      userMessage('go', { id: 'u1' }),
      assistantMessage('', { id: 'a1', toolCalls: [call('c1'), call('c2')] }),
      toolMessage('r1', { id: 't1', toolCallId: 'c1', name: 'look' }),
      toolMessage('r2', { id: 't2', toolCallId: 'c2', name: 'look' }),
      assistantMessage('done', { id: 'a2' }),
    ];
    expect(ids(splitTurns(history))).toEqual([['u1'], ['a1', 't1', 't2'], ['a2']]);
  });

  test('a late result for an earlier call merges the turns in between', () => {
    const history = [
      assistantMessage('', { id: 'a1', toolCalls: [call('c1')] }),
      userMessage('meanwhile', { id: 'u1' }),
      toolMessage('r1', { id: 't1', toolCallId: 'c1', name: 'look' }),
      userMessage('next', { id: 'u2' }),
    ];
    expect(ids(splitTurns(history))).toEqual([['a1', 'u1', 't1'], ['u2']]);
  });
});

describe('splitForCompaction', () => {
  test('keeps the last N turns and summarizes earlier notes again', () => {
    const history = [
      userMessage('old summary', { id: `${SUMMARY_ID_PREFIX}1` }),
      userMessage('q1', { id: 'u1' }),
      assistantMessage('', { id: 'a1', toolCalls: [call('c1')] }),
      toolMessage('r1', { id: 't1', toolCallId: 'c1', name: 'look' }),
      assistantMessage('answer', { id: 'a2' }),
    ];
    const { older, kept } = splitForCompaction(history, 2);
    expect(older.map((m) => m.id)).toEqual([`${SUMMARY_ID_PREFIX}1`, 'u1']);
    expect(kept.map((m) => m.id)).toEqual(['a1', 't1', 'a2']);
    expect(older.filter(isContextNote)).toHaveLength(1);
  });
});

describe('approximateTokenEstimator', () => {
  test('counts characters / 4, an overhead per message and tool-call arguments', () => {
    const estimate = approximateTokenEstimator();
    expect(estimate.text('12345678')).toBe(2);
    const reply = assistantMessage('abcd', { toolCalls: [{ id: 'c', name: 'abcd', arguments: '12345678' }] });
    expect(estimate.messages([reply])).toBe(4 + 1 + 1 + 2);
    expect(approximateTokenEstimator({ messageOverhead: 0 }).messages([userMessage('abcdefgh')])).toBe(2);
  });
});
