import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { IndexedGraphSpec } from '../pregel/spec-index.js';
import { END, START } from '../vocabulary/constants.js';
import { SpecBuilder } from './spec-builder.js';

const noop = () => ({});

/** Each node's recorded position, by name, in the map's order. */
function positions(spec: IndexedGraphSpec): Array<[string, number]> {
  return [...spec.nodes.values()].map((node) => [node.name, node.index]);
}

describe('SpecBuilder node positions', () => {
  it('records each node at its place in insertion order; a rejected node takes no place', () => {
    const builder = new SpecBuilder('state', undefined);
    builder.addNode('a', noop);
    builder.addNode('a', noop); // duplicate
    builder.addNode(START, noop); // reserved
    builder.addNode('x|y', noop); // invalid name
    builder.addNode('b', 42); // not a node implementation
    builder.addNode('c', noop);
    const spec = builder.spec();
    expect(positions(spec)).toEqual([
      ['a', 0],
      ['c', 1],
    ]);
    expect(spec.issues.map((issue) => issue.kind)).toEqual([
      'duplicate-node',
      'reserved-name',
      'invalid-name',
      'invalid-option',
    ]);
  });

  it('gives a node added after a snapshot the next place, and leaves the snapshot as it was', () => {
    const builder = new SpecBuilder('state', undefined);
    builder.addNode('a', noop);
    const first = builder.spec();
    builder.addNode('b', noop);
    expect(positions(first)).toEqual([['a', 0]]);
    expect(positions(builder.spec())).toEqual([
      ['a', 0],
      ['b', 1],
    ]);
  });

  it('numbers the nodes of two clones extended in different directions independently', () => {
    const base = new SpecBuilder('dataflow', undefined);
    base.addNode('a', noop);
    const left = base.clone();
    const right = base.clone();
    left.addNode('l', noop);
    right.addNode('r1', noop);
    right.addNode('r2', noop);
    expect(positions(left.spec())).toEqual([
      ['a', 0],
      ['l', 1],
    ]);
    expect(positions(right.spec())).toEqual([
      ['a', 0],
      ['r1', 1],
      ['r2', 2],
    ]);
    expect(positions(base.spec())).toEqual([['a', 0]]);
  });
});

describe('SpecBuilder node names', () => {
  /** The rule node names follow, as the builder stated it before it stopped running a regex per node. */
  const namePattern = /^[^|:\s][^|:]*$/;

  function accepted(name: string): boolean {
    const builder = new SpecBuilder('state', undefined);
    builder.addNode(name, noop);
    return builder.spec().nodes.has(name);
  }

  it.each([
    ['a', true],
    ['n0', true],
    ['a b', true],
    ['a\nb', true],
    ['é', true],
    ['😀', true],
    ['\u007f', true],
    ['', false],
    [' a', false],
    ['\ta', false],
    ['\u00a0a', false],
    ['\u2028a', false],
    ['\u3000a', false],
    ['\ufeffa', false],
    ['|a', false],
    ['a|b', false],
    [':a', false],
    ['a:', false],
  ])('%j is a valid node name: %s', (name, valid) => {
    expect(namePattern.test(name)).toBe(valid);
    expect(accepted(name)).toBe(valid);
  });

  it('accepts exactly the names the pattern accepts', () => {
    const pieces = fc.constantFrom(
      'a',
      'Z',
      '0',
      ' ',
      '\t',
      '\n',
      '\u00a0',
      '\u3000',
      '|',
      ':',
      'é',
      '😀',
      '-',
    );
    const name = fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc.array(pieces).map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(name, (candidate) => {
        if (candidate === START || candidate === END) return;
        expect(accepted(candidate)).toBe(namePattern.test(candidate));
      }),
      { numRuns: 2000 },
    );
  });
});
