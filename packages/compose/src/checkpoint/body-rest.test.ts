import { describe, expect, it } from 'vitest';
import { type BodyRest, serializeBodyRest } from './body-rest.js';
import { deserialize, serialize } from './serializer.js';

const empty = { barriers: [], inbox: [], deferred: [] };
const sinceBase = { bytes: 12, count: 3 };

describe('serializeBodyRest', () => {
  it('gives the text serialize gives, with and without values that need tags', () => {
    const rests: BodyRest[] = [
      { next: [], routing: empty, sinceBase },
      {
        next: [
          { id: 'c1:a:0', node: 'a' },
          { id: 'c1:"b"\n:1', node: 'b é 🧵', pipedFrom: 0 },
        ],
        routing: { barriers: [[2, ['a', 'b']]], inbox: [], deferred: ['c'] },
        sinceBase,
      },
      // A Send's input and an inbox value hold a Date, a Map and a bigint: they must keep their tags.
      { next: [{ id: 'c1:s:0', node: 's', input: { at: new Date(0), n: 2n } }], routing: empty, sinceBase },
      {
        next: [],
        routing: {
          barriers: [],
          inbox: [['j', { sources: ['a'], values: [new Map([['k', 1]])] }]],
          deferred: [],
        },
        sinceBase,
      },
    ];
    for (const rest of rests) expect(serializeBodyRest(rest)).toBe(serialize(rest));
  });

  it('keeps the tags of a task input, so it reads back as the same value', () => {
    const input = { at: new Date(5), seen: new Set(['x']) };
    const text = serializeBodyRest({ next: [{ id: 'c1:s:0', node: 's', input }], routing: empty, sinceBase });
    expect((deserialize(text) as BodyRest).next[0]?.input).toEqual(input);
  });
});
