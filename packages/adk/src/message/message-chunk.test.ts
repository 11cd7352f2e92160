import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { concatMessageChunks, type MessageChunk } from './message-chunk.js';
import { messageText } from './message-text.js';

describe('concatMessageChunks', () => {
  it('joins text and gives an empty assistant message for no chunks', () => {
    expect(concatMessageChunks([{ text: 'Hel' }, { text: 'lo' }, {}, { text: '!' }])).toEqual({
      role: 'assistant',
      content: 'Hello!',
    });
    expect(concatMessageChunks([])).toEqual({ role: 'assistant', content: '' });
  });

  it('merges tool-call deltas by index, ordered by index, even when interleaved', () => {
    const message = concatMessageChunks([
      { text: 'Let me check. ' },
      { toolCallDeltas: [{ index: 1, id: 'call_b', name: 'search', arguments: '{"q":' }] },
      { toolCallDeltas: [{ index: 0, id: 'call_a', name: 'add', arguments: '{"a":1,' }] },
      {
        toolCallDeltas: [
          { index: 1, arguments: '"cats"}' },
          { index: 0, arguments: '"b":2}' },
        ],
      },
    ]);
    expect(message.content).toBe('Let me check. ');
    expect(message.toolCalls).toEqual([
      { id: 'call_a', name: 'add', arguments: '{"a":1,"b":2}' },
      { id: 'call_b', name: 'search', arguments: '{"q":"cats"}' },
    ]);
  });

  it('takes id and name from the first delta of an index, not concatenating repeats', () => {
    const message = concatMessageChunks([
      { toolCallDeltas: [{ index: 0, id: 'call_1', name: 'add', arguments: '{' }] },
      { toolCallDeltas: [{ index: 0, id: 'call_1', name: 'add', arguments: '}' }] },
    ]);
    expect(message.toolCalls).toEqual([{ id: 'call_1', name: 'add', arguments: '{}' }]);
  });

  it('fills a missing id or name from a later delta and invents an id if none came', () => {
    const message = concatMessageChunks([
      { toolCallDeltas: [{ index: 0, arguments: '{"x"' }] },
      { toolCallDeltas: [{ index: 0, name: 'late', arguments: ':1}' }] },
      { toolCallDeltas: [{ index: 3, name: 'anonymous' }] },
    ]);
    expect(message.toolCalls).toEqual([
      { id: 'call_0', name: 'late', arguments: '{"x":1}' },
      { id: 'call_3', name: 'anonymous', arguments: '' },
    ]);
  });

  it('keeps the last usage report of each field and computes a missing total', () => {
    const message = concatMessageChunks([
      { usage: { inputTokens: 10, outputTokens: 1 } },
      { text: 'x' },
      { usage: { outputTokens: 7 } },
    ]);
    expect(message.usage).toEqual({ inputTokens: 10, outputTokens: 7, totalTokens: 17 });
    const reported = concatMessageChunks([{ usage: { inputTokens: 3, outputTokens: 4, totalTokens: 9 } }]);
    expect(reported.usage).toEqual({ inputTokens: 3, outputTokens: 4, totalTokens: 9 });
  });

  it('keeps the first message id', () => {
    expect(concatMessageChunks([{ text: 'a' }, { id: 'm1', text: 'b' }, { id: 'm2' }]).id).toBe('m1');
  });

  it('gives the same message however text and arguments are split into chunks (property)', () => {
    const splits = fc.array(fc.nat({ max: 40 }), { maxLength: 6 });
    fc.assert(
      fc.property(fc.string(), fc.string(), splits, (text, args, cuts) => {
        const chunks: MessageChunk[] = [];
        const points = [...new Set([0, ...cuts, text.length])]
          .filter((p) => p <= text.length)
          .sort((a, b) => a - b);
        for (let i = 1; i < points.length; i++) chunks.push({ text: text.slice(points[i - 1], points[i]) });
        const argPoints = [...new Set([0, ...cuts, args.length])]
          .filter((p) => p <= args.length)
          .sort((a, b) => a - b);
        for (let i = 1; i < argPoints.length; i++) {
          const fragment = args.slice(argPoints[i - 1], argPoints[i]);
          chunks.push({
            toolCallDeltas: [
              i === 1
                ? { index: 0, id: 'c', name: 'f', arguments: fragment }
                : { index: 0, arguments: fragment },
            ],
          });
        }
        const message = concatMessageChunks(chunks);
        expect(message.content).toBe(text);
        if (args.length > 0) expect(message.toolCalls).toEqual([{ id: 'c', name: 'f', arguments: args }]);
      }),
    );
  });
});

describe('concatMessageChunks with reasoning and provider data', () => {
  it('merges reasoning deltas by index into parts before the text, keeping signatures and metadata', () => {
    const message = concatMessageChunks([
      { reasoningDeltas: [{ index: 0, text: 'Think ' }] },
      {
        reasoningDeltas: [
          { index: 0, text: 'hard.' },
          { index: 1, redacted: 'xyz' },
        ],
      },
      { reasoningDeltas: [{ index: 0, signature: 'sig', providerMetadata: { anthropic: { a: 1 } } }] },
      { text: 'Answer.' },
      {
        toolCallDeltas: [
          { index: 0, id: 'c', name: 'f', arguments: '{}', providerMetadata: { google: { s: 't' } } },
        ],
      },
      { finishReason: 'tool-calls', providerMetadata: { openai: { responseId: 'r' } } },
    ]);
    expect(message).toEqual({
      role: 'assistant',
      content: [
        {
          type: 'reasoning',
          text: 'Think hard.',
          signature: 'sig',
          providerMetadata: { anthropic: { a: 1 } },
        },
        { type: 'reasoning', text: '', redacted: 'xyz' },
        { type: 'text', text: 'Answer.' },
      ],
      toolCalls: [{ id: 'c', name: 'f', arguments: '{}', providerMetadata: { google: { s: 't' } } }],
      finishReason: 'tool-calls',
      providerMetadata: { openai: { responseId: 'r' } },
    });
    expect(messageText(message)).toBe('Answer.');
  });

  it('keeps reasoning alone when there is no text', () => {
    expect(concatMessageChunks([{ reasoningDeltas: [{ index: 3, text: 'hm' }] }]).content).toEqual([
      { type: 'reasoning', text: 'hm' },
    ]);
  });
});
