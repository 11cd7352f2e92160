import type { StepRecord } from '../pregel/loop-hooks.js';
import { jsonQuote } from './json-quote.js';
import { entriesOf, serializeWrites } from './write-encoding.js';

/**
 * One step's writes as stored text: exactly what `serializeWrites` gives for their entries (`entriesOf`
 * of each update). When every update is a plain object (or a dataflow value) whose values are strings,
 * booleans, `null` or finite numbers other than `-0` — values whose tagged JSON is their plain JSON, as
 * in most steps of a state graph — the text is written by hand: no entries arrays, no tagged walk, no
 * copies (once per durable step). Any other update sends the whole step down the general path.
 *
 * @throws {SerializationError} code `SERIALIZATION`, naming the node and channel, when a value cannot be
 * stored.
 * @example
 * ```ts
 * stepWritesText([['a', { n: 1, note: 'hi' }], ['b', {}]]); // '[["a",[["n",1],["note","hi"]]],["b",[]]]'
 * stepWritesText([['a', { at: new Date(0) }]]); // the tagged Date, as serializeWrites writes it
 * ```
 */
export function stepWritesText(writes: StepRecord['writes']): string {
  let text = '[';
  for (let index = 0; index < writes.length; index++) {
    const [node, update] = writes[index] as StepRecord['writes'][number];
    const entries = plainEntriesText(update);
    if (entries === undefined)
      return serializeWrites(writes.map(([name, u]) => [name, entriesOf(u)] as const));
    text += `${index === 0 ? '' : ','}[${jsonQuote(node)},[${entries}]]`;
  }
  return `${text}]`;
}

/** The update's entries' text without brackets, or `undefined` when it needs the general path. */
function plainEntriesText(update: unknown): string | undefined {
  if (typeof update !== 'object' || update === null) {
    const value = plainText(update);
    return value === undefined ? undefined : `["__output__",${value}]`;
  }
  const prototype: unknown = Object.getPrototypeOf(update);
  if (prototype !== Object.prototype && prototype !== null) return undefined;
  const keys = Object.keys(update);
  let text = '';
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    const value = plainText((update as Record<string, unknown>)[key]);
    if (value === undefined) return undefined;
    text += `${index === 0 ? '' : ','}[${jsonQuote(key)},${value}]`;
  }
  return text;
}

/** A value's JSON when its tagged JSON is the same, else `undefined`. */
function plainText(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return jsonQuote(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      // NaN, ±Infinity and -0 carry a tag; other numbers print as JSON prints them.
      return Number.isFinite(value) && !Object.is(value, -0) ? String(value) : undefined;
    case 'object':
      return value === null ? 'null' : undefined;
    default:
      return undefined;
  }
}
