import { describe, expect, it } from 'vitest';
import { renewTaskIds } from '../checkpoint/loop-state.js';
import { PipedTask, PlannedStep, PlannedTask, SentTask } from './task.js';
import type { Topology } from './topology.js';

const nodes = [{ name: 'split' }, { name: 'square' }];

describe('planned tasks', () => {
  it('hold their node, input and position; the id parts are the step’s, shared', () => {
    const step = new PlannedStep(3, nodes, false);
    const tasks = [new PlannedTask(0, undefined, 0, step), new SentTask(1, 7, 1, step)];
    // A map step keeps every task alive until it applies their writes: per-task fields are its cost.
    for (const task of tasks) expect(Object.keys(task)).toEqual(['node', 'input', 'position']);
    expect(tasks.map((task) => [task.id, task.hasInput, task.input, task.pipedFrom])).toEqual([
      ['3:split:0', false, undefined, undefined],
      ['3:square:1', true, 7, undefined],
    ]);
    expect(tasks[1]?.id).toBe(tasks[1]?.id);
  });

  it('are named by step, node and position, whichever step asks: a node reuses only the last id it was given', () => {
    const named = [{ name: 'a' }, { name: 'b' }];
    const id = (prefix: string | number, node: number, position: number) =>
      new PlannedTask(node, undefined, position, new PlannedStep(prefix, named, false)).id;
    // Asked in an order where an id cached on the wrong key (prefix only, position only) would be wrong.
    expect([
      id(1, 0, 0),
      id(1, 0, 0),
      id(1, 0, 1),
      id(2, 0, 1),
      id('2', 0, 1),
      id('sub:2', 0, 1),
      id(2, 1, 1),
      id(1, 0, 0),
    ]).toEqual(['1:a:0', '1:a:0', '1:a:1', '2:a:1', '2:a:1', 'sub:2:a:1', '2:b:1', '1:a:0']);
  });

  it('take their inbox as input in a dataflow graph, and a piped task its producer’s chunks', () => {
    const step = new PlannedStep('sub:2', nodes, true);
    const piped = new PipedTask(1, 1, step, 0);
    expect([new PlannedTask(0, 'in', 0, step).hasInput, piped.hasInput, piped.pipedFrom, piped.id]).toEqual([
      true,
      true,
      0,
      'sub:2:square:1',
    ]);
  });

  it('keep their input, hasInput and pipedFrom under renewed ids (their getters are read, not spread)', () => {
    const step = new PlannedStep(1, nodes, false);
    const topology = { nodes } as unknown as Topology;
    const renewed = renewTaskIds(topology, [new SentTask(1, 5, 0, step), new PipedTask(1, 1, step, 0)], 'x');
    expect(renewed).toEqual([
      { node: 1, input: 5, hasInput: true, id: 'x:square:0' },
      { node: 1, input: undefined, hasInput: true, id: 'x:square:1', pipedFrom: 0 },
    ]);
  });
});
