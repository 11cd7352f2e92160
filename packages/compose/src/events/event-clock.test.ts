import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { StateGraph } from '../graph/state-graph.js';
import { END, START } from '../vocabulary/constants.js';
import type { RunEvent } from './run-event.js';

afterEach(() => {
  vi.restoreAllMocks();
});

/** A clock that moves 10 ms on every read, so each read's value tells which read it was. */
function tickingClock() {
  let now = 1_000;
  return vi.spyOn(Date, 'now').mockImplementation(() => {
    now += 10;
    return now;
  });
}

async function eventsOf(node: 'sync' | 'async'): Promise<RunEvent[]> {
  const graph = new StateGraph(z.object({ n: z.number() }))
    .addNode('a', node === 'sync' ? (s) => ({ n: s.n + 1 }) : async (s) => ({ n: s.n + 1 }))
    .addNode('b', (s) => ({ n: s.n + 1 }))
    .addEdge(START, 'a')
    .addEdge('a', 'b')
    .addEdge('b', END)
    .compile();
  const events: RunEvent[] = [];
  for await (const event of graph.stream({ n: 0 }, { mode: 'events' })) events.push(event);
  return events;
}

const ofType = (events: RunEvent[], type: RunEvent['type']) => events.filter((e) => e.type === type);

describe('event clock', () => {
  it('a step that stays synchronous ends at its last node’s end (one clock read per step)', async () => {
    const clock = tickingClock();
    const events = await eventsOf('sync');
    const ends = ofType(events, 'node-end');
    const stepEnds = ofType(events, 'step-end');
    const stepStarts = ofType(events, 'step-start');
    expect(stepEnds.map((e) => e.ts)).toEqual(ends.map((e) => e.ts));
    for (const [i, end] of stepEnds.entries()) {
      expect(end).toMatchObject({ durationMs: end.ts - (stepStarts[i] as RunEvent).ts });
    }
    // run-start, the first step's start, node-end a, node-end b, run-end (a later step starts at the
    // previous one's end).
    expect(clock).toHaveBeenCalledTimes(5);
    const times = events.map((e) => e.ts);
    expect(times).toEqual([...times].sort((x, y) => x - y));
  });

  it('a step that awaited reads the clock again for its end', async () => {
    tickingClock();
    const events = await eventsOf('async');
    const [endA] = ofType(events, 'node-end');
    const [stepEndA] = ofType(events, 'step-end');
    expect(stepEndA?.ts).toBeGreaterThan(endA?.ts as number);
  });
});
