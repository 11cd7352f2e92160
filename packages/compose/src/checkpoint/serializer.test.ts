import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WeftError } from '../errors/weft-error.js';
import { SerializationError } from './serialization-error.js';
import { deserialize, serialize, serializeChannels } from './serializer.js';

class Foo {
  readonly x = 1;
}

function roundTrip<T>(value: T): T {
  return deserialize(serialize(value)) as T;
}

function thrown(run: () => unknown): SerializationError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SerializationError);
    return error as SerializationError;
  }
  throw new Error('expected a SerializationError, nothing was thrown');
}

const errorArbitrary = fc
  .record({
    kind: fc.constantFrom(Error, TypeError, RangeError, SyntaxError),
    message: fc.string(),
    cause: fc.option(fc.oneof(fc.string(), fc.integer(), fc.constant(undefined)), { nil: null }),
    code: fc.option(fc.oneof(fc.string(), fc.integer()), { nil: null }),
  })
  .map(({ kind, message, cause, code }) => {
    const error = cause === null ? new kind(message) : new kind(message, { cause });
    if (code !== null) Object.assign(error, { code });
    return error;
  });

const bytesArbitrary = fc.uint8Array({ maxLength: 40 });

const leafArbitrary = fc.oneof(
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.constant(null),
  fc.constant(undefined),
  fc.bigInt(),
  fc.date(),
  bytesArbitrary,
  errorArbitrary,
  fc.constantFrom('$weft', 'undefined', 'Date'),
);

// No `constructor` key: toStrictEqual compares `a.constructor === b.constructor`, which an own property
// holding an object defeats even when both sides are equal.
const valueArbitrary = fc.anything({
  values: [leafArbitrary],
  key: fc
    .oneof(fc.string(), fc.constantFrom('$weft', 'v', '__proto__', ''))
    .filter((key) => key !== 'constructor'),
  withMap: true,
  withSet: true,
  maxDepth: 4,
});

describe('serialize / deserialize', () => {
  it('writes exactly JSON.stringify output for plain JSON', () => {
    fc.assert(
      // Normalised through JSON first: fc.jsonValue() may hold -0, which serialize keeps and JSON does not.
      fc.property(fc.jsonValue(), (generated) => {
        const value: unknown = JSON.parse(JSON.stringify(generated));
        expect(serialize(value)).toBe(JSON.stringify(value));
      }),
      { numRuns: 500 },
    );
  });

  it('round-trips arbitrary values exactly', () => {
    fc.assert(
      fc.property(valueArbitrary, (value) => {
        expect(roundTrip(value)).toStrictEqual(value);
      }),
      { numRuns: 300 },
    );
  });

  it('round-trips plain objects that use the tag key, at any depth', () => {
    const tagLike = fc.dictionary(
      fc.constantFrom('$weft', 'v', 'x'),
      fc.constantFrom('Date', 'Map', 1, null),
      {
        noNullPrototype: true,
      },
    );
    fc.assert(
      fc.property(fc.array(tagLike), fc.jsonValue(), (objects, json) => {
        const value = { objects, json, nested: { $weft: objects } };
        expect(roundTrip(value)).toStrictEqual(value);
      }),
    );
  });

  it('round-trips each tagged type', () => {
    const value = {
      missing: undefined,
      list: [undefined, 1, undefined],
      numbers: [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0, 0],
      big: 2n ** 70n,
      negative: -5n,
      at: new Date('2024-05-06T07:08:09.123Z'),
      invalid: new Date(Number.NaN),
      map: new Map<unknown, unknown>([
        ['a', 1],
        [{ k: 1 }, new Set([1, 'x'])],
      ]),
      set: new Set([new Date(0), 'x']),
      bytes: new Uint8Array([0, 1, 254, 255]),
      escaped: { $weft: 'Date', v: 'not a date' },
    };
    expect(roundTrip(value)).toStrictEqual(value);
    expect(roundTrip(undefined)).toBeUndefined();
    expect(Object.is(roundTrip(-0), -0)).toBe(true);
  });

  it('keeps a __proto__ key as data without touching the prototype', () => {
    const value = JSON.parse('{"__proto__":{"polluted":true},"at":null}') as Record<string, unknown>;
    value.at = new Date(0);
    const back = roundTrip(value) as Record<string, unknown>;
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(Object.hasOwn(back, '__proto__')).toBe(true);
    expect(back).toStrictEqual(value);
  });

  it('stores Buffers and views into larger buffers as their bytes only', () => {
    const backing = new Uint8Array([9, 9, 1, 2, 3, 9]);
    const view = new Uint8Array(backing.buffer, 2, 3);
    expect(roundTrip(view)).toStrictEqual(new Uint8Array([1, 2, 3]));
    const buffer = roundTrip(Buffer.from('hi'));
    expect(buffer).toBeInstanceOf(Uint8Array);
    expect(Buffer.isBuffer(buffer)).toBe(false);
    expect(Array.from(buffer)).toEqual([104, 105]);
  });

  it('keeps the name, message, stack, cause and code of errors', () => {
    const cause = new RangeError('inner');
    const error = Object.assign(new TypeError('outer', { cause }), { code: 'E_OUTER' });
    const back = roundTrip(error);
    expect(back).toBeInstanceOf(TypeError);
    expect(back.message).toBe('outer');
    expect(back.stack).toBe(error.stack);
    expect(back.cause).toBeInstanceOf(RangeError);
    expect((back.cause as Error).stack).toBe(cause.stack);
    expect(back.code).toBe('E_OUTER');
    expect(Object.keys(back)).toEqual(['code']);
  });

  it('turns errors of unknown classes into Errors with the original name and code', () => {
    const error = new WeftError('NODE_FAILED', 'node crashed');
    const back = roundTrip(error);
    expect(back).toBeInstanceOf(Error);
    expect(back).not.toBeInstanceOf(WeftError);
    expect(back.name).toBe('WeftError');
    expect(back.code).toBe('NODE_FAILED');
    expect(back.message).toBe('node crashed');
  });

  it('does not modify the value it serializes', () => {
    const value = { at: new Date(1), list: [undefined, { n: Number.NaN }] };
    serialize(value);
    expect(value.at).toBeInstanceOf(Date);
    expect(value.list[0]).toBeUndefined();
    expect(value.list[1]).toEqual({ n: Number.NaN });
  });

  it('parses untagged text with JSON.parse semantics', () => {
    expect(deserialize('{"a":[1,"x",null,{"b":true}]}')).toEqual({ a: [1, 'x', null, { b: true }] });
  });
});

describe('serialize errors', () => {
  it('names the path of a class instance', () => {
    const value = { messages: [0, 1, 2, { meta: new Foo() }] };
    const error = thrown(() => serialize(value));
    expect(error.path).toBe('messages[3].meta');
    expect(error.message).toBe(
      'cannot serialize value at messages[3].meta: class Foo is not serializable; convert it to plain data',
    );
    expect(error.code).toBe('SERIALIZATION');
    expect(WeftError.isInstance(error)).toBe(true);
  });

  it('names functions, symbols and odd keys', () => {
    expect(thrown(() => serialize({ 'a b': { run() {} } })).message).toBe(
      'cannot serialize value at ["a b"].run: function run is not serializable; store plain data instead',
    );
    const symbolError = thrown(() => serialize([Symbol('s')]));
    expect(symbolError.path).toBe('[0]');
    expect(symbolError.message).toContain('Symbol(s) is not serializable');
  });

  it('names the root when the value itself is not serializable', () => {
    const error = thrown(() => serialize(new Foo()));
    expect(error.path).toBe('');
    expect(error.message).toBe(
      'cannot serialize value: class Foo is not serializable; convert it to plain data',
    );
  });

  it('names paths inside maps, sets and error causes', () => {
    expect(thrown(() => serialize({ m: new Map([['k', [new Foo()]]]) })).path).toBe('m.get("k")[0]');
    expect(thrown(() => serialize({ m: new Map([[new Foo(), 1]]) })).path).toBe('m.keys()[0]');
    expect(thrown(() => serialize({ s: new Set([1, () => 1]) })).path).toBe('s.values()[1]');
    expect(thrown(() => serialize({ e: new Error('x', { cause: new Foo() }) })).path).toBe('e.cause');
  });

  it('rejects class instances that look like supported types', () => {
    expect(thrown(() => serialize({ f: new Float64Array(2) })).message).toContain('class Float64Array');
    expect(thrown(() => serialize({ r: /x/ })).message).toContain('class RegExp');
    class List extends Array<number> {}
    expect(thrown(() => serialize({ l: List.from([1]) })).message).toContain('class List');
  });

  it('rejects cycles, but not shared references', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = { back: cyclic };
    const error = thrown(() => serialize({ root: cyclic }));
    expect(error.path).toBe('root.self.back');
    expect(error.message).toContain('circular reference');
    const shared = { n: 1 };
    expect(roundTrip({ x: shared, y: [shared] })).toEqual({ x: { n: 1 }, y: [{ n: 1 }] });
  });
});

describe('serializeChannels', () => {
  it('writes the same text as serialize', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), valueArbitrary, { maxKeys: 5, noNullPrototype: true }),
        (record) => {
          expect(serializeChannels(record)).toBe(serialize(record));
        },
      ),
      { numRuns: 100 },
    );
  });

  it('names the channel and the path inside it', () => {
    const error = thrown(() => serializeChannels({ count: 1, items: [1, 2, new Foo()] }));
    expect(error.message).toBe(
      'cannot serialize channel "items" at items[2]: class Foo is not serializable; convert it to plain data',
    );
    expect(error.path).toBe('items[2]');
    const handler = (): number => 1;
    expect(thrown(() => serializeChannels({ 'my channel': handler })).message).toBe(
      'cannot serialize channel "my channel" at ["my channel"]: function handler is not serializable; store plain data instead',
    );
  });
});

describe('deserialize errors', () => {
  it('rejects text that is not JSON', () => {
    const error = thrown(() => deserialize('{"a":'));
    expect(error.code).toBe('SERIALIZATION');
    expect(error.message).toMatch(/^cannot deserialize checkpoint text: /);
    expect(error.cause).toBeInstanceOf(SyntaxError);
  });

  it('rejects unknown or malformed tags', () => {
    expect(thrown(() => deserialize('{"$weft":"Temporal","v":1}')).message).toContain(
      'unknown tag "Temporal"',
    );
    expect(thrown(() => deserialize('[{"$weft":"Map","v":3}]')).message).toContain('malformed Map value');
  });

  it('rejects tagged bodies serialize never writes: a date that does not parse, other numbers, bad bigints', () => {
    expect(thrown(() => deserialize('{"$weft":"Date","v":"not a date"}')).message).toContain(
      'malformed Date value',
    );
    expect(deserialize('{"$weft":"Date","v":null}')).toBeInstanceOf(Date);
    expect(thrown(() => deserialize('{"$weft":"Number","v":"12"}')).message).toContain('malformed Number');
    expect(thrown(() => deserialize('{"$weft":"Number","v":"toString"}')).code).toBe('SERIALIZATION');
    expect(thrown(() => deserialize('{"$weft":"BigInt","v":"1.5"}')).message).toContain('malformed BigInt');
    expect(deserialize('{"$weft":"Number","v":"-Infinity"}')).toBe(Number.NEGATIVE_INFINITY);
    expect(Object.is(deserialize('{"$weft":"Number","v":"-0"}'), -0)).toBe(true);
  });
});
