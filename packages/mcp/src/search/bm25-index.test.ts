import { describe, expect, it } from 'vitest';
import { Bm25Index, terms } from './bm25-index.js';

describe('Bm25Index', () => {
  it('splits names and text into terms', () => {
    expect(terms('slack_sendMessage: Sends messages to channels')).toEqual([
      'slack',
      'send',
      'message',
      'send',
      'message',
      'to',
      'channel',
    ]);
  });

  it('ranks rare matching terms above common ones and returns only matches', () => {
    const index = new Bm25Index([
      { id: 'a', text: 'create issue in the tracker' },
      { id: 'b', text: 'create invoice for a customer' },
      { id: 'c', text: 'list issues in the tracker' },
      { id: 'd', text: 'delete a file' },
    ]);
    expect(index.search('create invoice', 10)).toEqual(['b', 'a']);
    expect(index.search('tracker issues', 1)).toEqual(['a']);
    expect(index.search('weather', 10)).toEqual([]);
  });
});
