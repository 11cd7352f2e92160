import { describe, expect, it } from 'vitest';
import { blockToPart, resultToParts } from './result-content.js';

describe('resultToParts', () => {
  it('maps each kind of content block to a part', () => {
    expect(blockToPart({ type: 'text', text: 'hi' })).toEqual({ type: 'text', text: 'hi' });
    expect(blockToPart({ type: 'image', data: 'AAAA', mimeType: 'image/gif' })).toEqual({
      type: 'image',
      mediaType: 'image/gif',
      data: 'AAAA',
    });
    expect(blockToPart({ type: 'audio', data: 'AAAA', mimeType: 'audio/wav' })).toEqual({
      type: 'audio',
      mediaType: 'audio/wav',
      data: 'AAAA',
    });
    expect(blockToPart({ type: 'resource', resource: { uri: 'file:///a.txt', text: 'inside' } })).toEqual({
      type: 'text',
      text: 'inside',
    });
    expect(blockToPart({ type: 'resource', resource: { uri: 'file:///a.bin', blob: 'AA' } })).toEqual({
      type: 'file',
      mediaType: 'application/octet-stream',
      data: 'AA',
      filename: 'a.bin',
    });
    expect(blockToPart({ type: 'resource_link', uri: 'file:///b', name: 'b' })).toEqual({
      type: 'text',
      text: '[resource b <file:///b>]',
    });
  });

  it('sends structured content once: as JSON in place of its serialization, alone, or not beside a summary', () => {
    const structured = { temperature: 21 };
    expect(
      resultToParts({
        structuredContent: structured,
        content: [{ type: 'text', text: '{"temperature":21}' }],
      }),
    ).toEqual([{ type: 'json', value: structured }]);
    expect(resultToParts({ structuredContent: structured })).toEqual([{ type: 'json', value: structured }]);
    expect(
      resultToParts({ structuredContent: structured, content: [{ type: 'text', text: 'It is 21 °C.' }] }),
    ).toEqual([{ type: 'text', text: 'It is 21 °C.' }]);
    expect(resultToParts({})).toEqual([]);
  });
});
