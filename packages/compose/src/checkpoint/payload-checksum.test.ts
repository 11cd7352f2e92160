import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checksumMatches, payloadChecksum, portableSha256 } from './payload-checksum.js';

const payloads = ['', '{}', '{"text":"héllo wörld ✓ 日本語 🧵"}', 'x'.repeat(100_000), '\u0000\uffff'];

describe('payload checksums', () => {
  it('are the SHA-256 of the UTF-8 bytes, the same from node:crypto and from the pure-JS fallback', () => {
    for (const payload of payloads) {
      const expected = createHash('sha256').update(payload, 'utf8').digest('hex');
      expect(payloadChecksum(payload)).toBe(`sha256:${expected}`);
      expect(portableSha256(payload)).toBe(expected);
    }
  });

  it('match their payload only, and old rows without a checksum', () => {
    expect(checksumMatches('{}', payloadChecksum('{}'))).toBe(true);
    expect(checksumMatches('{ }', payloadChecksum('{}'))).toBe(false);
    expect(checksumMatches('{}', undefined)).toBe(true);
    expect(checksumMatches('{}', 'md5:99914b932bd37a50b983c5e7c90ae93b')).toBe(false);
  });
});
