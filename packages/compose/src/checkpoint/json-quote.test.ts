import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonQuote } from './json-quote.js';

describe('jsonQuote', () => {
  it('writes what JSON.stringify writes for any string', () => {
    for (const text of ['', 'a', 'n', '"', '\\', '\u007f', '\u001f', 'é', '\ud800', '🧵', 'a b~'])
      expect(jsonQuote(text)).toBe(JSON.stringify(text));
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (text) => jsonQuote(text) === JSON.stringify(text)));
    fc.assert(fc.property(fc.string(), (text) => jsonQuote(text) === JSON.stringify(text)));
  });
});
