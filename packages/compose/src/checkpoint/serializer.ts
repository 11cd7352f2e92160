/**
 * Checkpoint serialization: plain JSON plus a few tagged types, with no type registry.
 *
 * A tagged value is an object `{ "$weft": <tag>, "v": <body> }`:
 *
 * | value                         | tag         | body                                            |
 * | ----------------------------- | ----------- | ----------------------------------------------- |
 * | `undefined` (anywhere)        | `undefined` | none                                            |
 * | `NaN`, `±Infinity`, `-0`      | `Number`    | `"NaN"`, `"Infinity"`, `"-Infinity"`, `"-0"`    |
 * | bigint                        | `BigInt`    | decimal string                                  |
 * | `Date`                        | `Date`      | ISO-8601 string (`null` for an invalid date)    |
 * | `Uint8Array` (and `Buffer`)   | `Bytes`     | base64 string                                   |
 * | `Map`                         | `Map`       | array of `[key, value]` pairs                   |
 * | `Set`                         | `Set`       | array of items                                  |
 * | `Error` (and subclasses)      | `Error`     | `{ name, message, stack?, cause?, code? }`      |
 * | plain object with a `$weft` key | `Object`  | the object itself (so its keys are taken as-is) |
 *
 * Everything else that is not plain data — class instances, functions, symbols, cycles — is rejected with
 * a {@link SerializationError} naming the path inside the value. Decoded errors are plain `Error`s (or the
 * built-in subclass of the same name) carrying the original `name`; decoded `Buffer`s are `Uint8Array`s.
 * Symbol-keyed and non-enumerable properties are not stored, as with `JSON.stringify`.
 */
import { SerializationError } from './serialization-error.js';
import { reviveValue } from './tagged-json-decode.js';
import { encodeValue, propertySegment, setOwn, TAG, Unserializable } from './tagged-json-encode.js';

const TAG_MARK = `"${TAG}"`;

/**
 * Turns a value into checkpoint text (tagged JSON). Plain JSON input gives exactly `JSON.stringify`'s output.
 *
 * @throws {SerializationError} code `SERIALIZATION` when the value holds a class instance, function, symbol
 * or cycle; the message and `error.path` name where.
 * @example
 * ```ts
 * const text = serialize({ at: new Date(0), seen: new Set(['a']) });
 * const back = deserialize(text) as { at: Date; seen: Set<string> };
 * back.seen.has('a'); // true
 * ```
 */
export function serialize(value: unknown): string {
  let encoded: unknown;
  try {
    encoded = encodeValue(value, []);
  } catch (error) {
    throw toSerializationError(error, 'value');
  }
  return JSON.stringify(encoded);
}

/**
 * Serializes a record of channel values (one checkpoint's state) into one text. Same format as
 * {@link serialize}; error messages name the channel: `cannot serialize channel "items" at items[2]: ...`.
 *
 * @throws {SerializationError} code `SERIALIZATION`, naming the channel and the path inside it.
 * @example
 * ```ts
 * const text = serializeChannels({ messages: [{ role: 'user', content: 'hi' }], count: 1 });
 * deserialize(text); // { messages: [...], count: 1 }
 * ```
 */
export function serializeChannels(record: Readonly<Record<string, unknown>>): string {
  const ancestors: object[] = [record];
  const channels = Object.keys(record);
  let copy: Record<string, unknown> | undefined;
  for (let index = 0; index < channels.length; index++) {
    const channel = channels[index]!;
    const value = record[channel];
    let encoded: unknown;
    try {
      encoded = encodeValue(value, ancestors);
    } catch (error) {
      if (error instanceof Unserializable) error.segments.push(propertySegment(channel));
      throw toSerializationError(error, `channel ${JSON.stringify(channel)}`);
    }
    if (copy === undefined && encoded !== value) {
      copy = {};
      for (let before = 0; before < index; before++)
        setOwn(copy, channels[before]!, record[channels[before]!]);
    }
    if (copy !== undefined) setOwn(copy, channel, encoded);
  }
  const result = copy ?? record;
  return JSON.stringify(Object.hasOwn(record, TAG) ? { [TAG]: 'Object', v: result } : result);
}

/**
 * Turns checkpoint text written by {@link serialize} or {@link serializeChannels} back into the value.
 * Text without any tag is parsed by `JSON.parse` alone.
 *
 * @throws {SerializationError} code `SERIALIZATION` when the text is not valid JSON or holds a malformed tag.
 * @example
 * ```ts
 * deserialize(serialize({ big: 10n ** 20n })); // { big: 100000000000000000000n }
 * ```
 */
export function deserialize(text: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new SerializationError(`cannot deserialize checkpoint text: ${(error as Error).message}`, '', {
      cause: error,
    });
  }
  if (!text.includes(TAG_MARK)) return parsed;
  try {
    return reviveValue(parsed);
  } catch (error) {
    if (error instanceof Unserializable) {
      throw new SerializationError(`cannot deserialize checkpoint text: ${error.reason}`, '');
    }
    throw error;
  }
}

function toSerializationError(error: unknown, subject: string): unknown {
  if (!(error instanceof Unserializable)) return error;
  const path = error.path();
  const where = path === '' ? '' : ` at ${path}`;
  return new SerializationError(`cannot serialize ${subject}${where}: ${error.reason}`, path);
}
