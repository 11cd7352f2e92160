import { describe, expect, it } from 'vitest';
import { floorChain, floorFanout, floorLoop, floorSend } from './floor.ts';
import { floorMemoryCheckpointer } from './floor-engine.ts';

describe('the floor engine', () => {
  it('runs a chain one node per step', async () => {
    expect(await floorChain(100)({ n: 0 })).toEqual({ n: 100 });
  });

  it('loops through a router until it returns the end, storing each step’s writes', async () => {
    const threads = new Map<string, string[]>();
    const state = await floorLoop(5, () => floorMemoryCheckpointer(threads, 't'))({ n: 0 });
    expect(state).toEqual({ n: 5 });
    const steps = threads.get('t') ?? [];
    expect(steps).toHaveLength(10);
    expect(JSON.parse(steps[0] as string)).toEqual({ step: 0, writes: [['a', { n: 1 }]] });
  });

  it('joins a fan-out once, through the append reducer', async () => {
    const state = await floorFanout(10)({});
    expect(state.count).toBe(10);
    expect([...state.items].sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, i) => i));
  });

  it('runs Send tasks with their own inputs and sums their writes', async () => {
    expect(await floorSend(4)({ total: 0 })).toEqual({ total: 0 + 1 + 4 + 9 });
  });
});
