/** Combines the chunks of a stream into one value (the output an `invoke` would have returned). */
export type ConcatFunction = (chunks: readonly unknown[]) => unknown;

/**
 * The default concatenation: strings are joined, arrays flattened one level, plain objects merged key
 * by key (each key's chunks concatenated recursively), and anything else keeps its last chunk.
 * A graph or node may pass its own `concat` instead; nothing is registered globally.
 *
 * @example
 * ```ts
 * concatChunks(['Hel', 'lo']); // 'Hello'
 * concatChunks([{ text: 'a', n: 1 }, { text: 'b', n: 2 }]); // { text: 'ab', n: 2 }
 * ```
 */
export function concatChunks(chunks: readonly unknown[]): unknown {
  if (chunks.length === 0) return undefined;
  if (chunks.length === 1) return chunks[0];
  const first = chunks[0];
  if (typeof first === 'string' && chunks.every((chunk) => typeof chunk === 'string')) return chunks.join('');
  if (Array.isArray(first) && chunks.every(Array.isArray)) return (chunks as unknown[][]).flat(1);
  if (isPlainObject(first) && chunks.every(isPlainObject))
    return concatObjects(chunks as Record<string, unknown>[]);
  return chunks[chunks.length - 1];
}

function concatObjects(chunks: readonly Record<string, unknown>[]): Record<string, unknown> {
  const parts = new Map<string, unknown[]>();
  for (const chunk of chunks) {
    for (const key of Object.keys(chunk)) {
      const value = chunk[key];
      if (value === undefined) continue;
      const list = parts.get(key);
      if (list) list.push(value);
      else parts.set(key, [value]);
    }
  }
  const out: Record<string, unknown> = {};
  for (const [key, values] of parts) out[key] = concatChunks(values);
  return out;
}

/** True for `{}`-style objects (not arrays, class instances, dates or maps). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
