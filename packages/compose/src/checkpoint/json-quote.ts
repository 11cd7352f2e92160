/**
 * `JSON.stringify(text)` for a string, without the call into the runtime when it is short (up to 64
 * characters) and no character needs an escape (printable ASCII other than `"` and `\`): node names,
 * state keys and short values, a few per durable step. Longer text goes to `JSON.stringify` at once.
 *
 * @example
 * ```ts
 * jsonQuote('count'); // '"count"'
 * jsonQuote('say "hi"\n'); // '"say \\"hi\\"\\n"', as JSON.stringify writes it
 * ```
 */
export function jsonQuote(text: string): string {
  if (text.length > 64) return JSON.stringify(text);
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code > 0x7e || code === 0x22 || code === 0x5c) return JSON.stringify(text);
  }
  return `"${text}"`;
}
