import { describe, expect, it } from 'vitest';
import { AdkError } from '../errors/adk-error.js';
import { mediaBytes, mediaPart, mediaUrl } from './media-part.js';

describe('mediaPart', () => {
  it('stores bytes as base64 that survives JSON and decodes back', () => {
    const bytes = new Uint8Array([0, 1, 254, 255]);
    const part = mediaPart({ type: 'image', mediaType: 'image/png', bytes });
    expect(part).toEqual({ type: 'image', mediaType: 'image/png', data: 'AAH+/w==' });
    const revived = JSON.parse(JSON.stringify(part));
    expect(mediaBytes(revived)).toEqual(bytes);
    expect(mediaUrl(revived)).toBe('data:image/png;base64,AAH+/w==');
  });

  it('keeps a URL as it is, with the file name of files', () => {
    const part = mediaPart({
      type: 'file',
      mediaType: 'application/pdf',
      url: 'https://x/a.pdf',
      filename: 'a.pdf',
    });
    expect(part).toEqual({
      type: 'file',
      mediaType: 'application/pdf',
      url: 'https://x/a.pdf',
      filename: 'a.pdf',
    });
    expect(mediaBytes(part)).toBeUndefined();
    expect(mediaUrl(part)).toBe('https://x/a.pdf');
    expect(mediaPart({ type: 'audio', mediaType: 'audio/wav', url: 'u' })).toEqual({
      type: 'audio',
      mediaType: 'audio/wav',
      url: 'u',
    });
  });

  it('rejects a malformed media type', () => {
    expect(() => mediaPart({ type: 'audio', mediaType: 'wav', url: 'u' })).toThrow(AdkError);
    expect(() => mediaPart({ type: 'audio', mediaType: 'wav', url: 'u' })).toThrow(/type\/subtype/);
  });
});

describe('base64 of large inputs', () => {
  it('round-trips inputs longer than one encoding block (32 KiB), every byte value included', () => {
    const bytes = new Uint8Array(100_003).map((_, index) => (index * 7) % 256);
    const part = mediaPart({ type: 'file', mediaType: 'application/octet-stream', bytes });
    expect(part.data).toBe(Buffer.from(bytes).toString('base64'));
    expect(Buffer.from(mediaBytes(part) ?? []).equals(Buffer.from(bytes))).toBe(true);
  });
});
