import { describe, expect, it } from 'vitest';
import type { RoutingState } from '../pregel/plan.js';
import type { Task } from '../pregel/task.js';
import type { Topology } from '../pregel/topology.js';
import { type BodyRest, loopBodyRest, serializeBodyRest } from './body-rest.js';
import { storeRouting, storeTasks } from './loop-state.js';
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

describe('loopBodyRest', () => {
  // What storeTasks/storeRouting read of a topology: the node names, one needing JSON escapes.
  const topology = { nodes: [{ name: 'a' }, { name: 'b "é" 🧵\n\u2028' }] } as unknown as Topology;
  const task = (node: number, id: string, more: Partial<Task> = {}): Task => ({
    node,
    input: undefined,
    hasInput: false,
    id,
    ...more,
  });
  const emptyRouting = (): RoutingState => ({ barriers: new Map(), inbox: new Map(), deferred: new Set() });
  const same = (tasks: readonly Task[], routing: RoutingState) =>
    expect(loopBodyRest({ topology, tasks, routing }, sinceBase)).toBe(
      serialize({ next: storeTasks(topology, tasks), routing: storeRouting(topology, routing), sinceBase }),
    );

  it('writes the text serialize gives for the stored tasks and routing', () => {
    same([], emptyRouting());
    same([task(0, 'c1:a:0')], emptyRouting());
    same([task(0, 'c"1\\:a:0'), task(1, 'c1:b:1')], emptyRouting());
    // Not plain: a task input with a tag, a piped task, a barrier, an inbox value, a deferred node.
    same([task(1, 'c1:b:0', { input: { at: new Date(0) }, hasInput: true })], emptyRouting());
    same([task(1, 'c1:b:0', { hasInput: true })], emptyRouting());
    same([task(1, 'c1:b:1', { pipedFrom: 0 })], emptyRouting());
    const routing = emptyRouting();
    routing.barriers.set(3, new Set([0]));
    routing.inbox.set(1, { sources: ['a'], values: [new Map([['k', 1n]])] } as never);
    routing.deferred.add(0);
    same([task(0, 'c1:a:0')], routing);
  });
});
