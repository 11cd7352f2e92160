import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StepRecord } from '../pregel/loop-hooks.js';
import { SubgraphWrites } from '../pregel/subgraph-writes.js';
import { SerializationError } from './serialization-error.js';
import { stepWritesText } from './step-writes-text.js';
import { entriesOf, serializeWrites } from './write-encoding.js';

/** The general path: every update's entries through the tagged serializer. */
const general = (writes: StepRecord['writes']) =>
  serializeWrites(writes.map(([node, update]) => [node, entriesOf(update)] as const));

const primitive = fc.oneof(
  fc.string(),
  fc.boolean(),
  fc.constant(null),
  fc.double(),
  fc.integer(),
  fc.constantFrom(-0, Number.NaN, Number.POSITIVE_INFINITY, undefined, 10n ** 20n),
);
const value = fc.oneof(
  primitive,
  fc.date(),
  fc.array(primitive, { maxLength: 2 }),
  fc.object({ maxDepth: 1 }),
);
const key = fc.oneof(fc.string(), fc.constantFrom('__proto__', '$weft', '__output__', 'n', 'é\n"'));
const update = fc.oneof(
  fc.dictionary(key, primitive, { maxKeys: 4 }),
  fc.dictionary(key, value, { maxKeys: 3 }),
  fc.dictionary(key, primitive, { maxKeys: 3, noNullPrototype: false }),
  primitive,
  fc.array(primitive, { maxLength: 2 }).map((items) => new SubgraphWrites(items.map((v, i) => [`k${i}`, v]))),
  fc.array(primitive, { maxLength: 2 }),
);
const step = fc.array(fc.tuple(fc.oneof(fc.string(), fc.constantFrom('__start__', 'a')), update), {
  maxLength: 4,
});

/** The text, or the error's message and path when a value cannot be stored. */
function outcome(write: (writes: StepRecord['writes']) => string, writes: StepRecord['writes']): unknown {
  try {
    return write(writes);
  } catch (error) {
    if (!(error instanceof SerializationError)) throw error;
    return { message: error.message, path: error.path };
  }
}

describe('stepWritesText', () => {
  it('gives the text (or the error) the general path gives', () => {
    fc.assert(
      fc.property(step, (writes) => {
        expect(outcome(stepWritesText, writes)).toEqual(outcome(general, writes));
      }),
      { numRuns: 500 },
    );
  });

  it('writes plain steps by hand and tagged values through the serializer', () => {
    const plain: StepRecord['writes'] = [
      ['__start__', { n: 0, note: 'é "q"\n', ok: true, none: null }],
      ['a', { n: 1.5e21 }],
      ['b', {}],
      ['c', 'dataflow value'],
    ];
    expect(stepWritesText(plain)).toBe(
      '[["__start__",[["n",0],["note","é \\"q\\"\\n"],["ok",true],["none",null]]],["a",[["n",1.5e+21]]],["b",[]],["c",[["__output__","dataflow value"]]]]',
    );
    for (const odd of [-0, Number.NaN, undefined, new Date(0), 1n, [1]]) {
      const writes: StepRecord['writes'] = [
        ['a', { n: 1 }],
        ['b', { v: odd }],
      ];
      expect(stepWritesText(writes)).toBe(general(writes));
    }
    expect(() => stepWritesText([['a', { f: () => 1 }]])).toThrow(/node "a"/);
  });
});
