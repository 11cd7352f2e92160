import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { StateGraph } from '../graph/state-graph.js';
import { END, START } from '../vocabulary/constants.js';
import type { RunEvent } from './run-event.js';

afterEach(() => {
  vi.restoreAllMocks();
});

/** A clock that moves 10 ms at every read, so each stamp tells which read made it. */
function tickingClock() {
  let now = 1_000;
  return vi.spyOn(Date, 'now').mockImplementation(() => {
    now += 10;
    return now;
  });
}

async function eventsOf(first: 'sync' | 'async'): Promise<RunEvent[]> {
  const graph = new StateGraph(z.object({ n: z.number() }))
    .addNode('a', first === 'sync' ? (s) => ({ n: s.n + 1 }) : async (s) => ({ n: s.n + 1 }))
    .addNode('b', (s) => ({ n: s.n + 1 }))
    .addEdge(START, 'a')
    .addEdge('a', 'b')
    .addEdge('b', END)
    .compile();
  const events: RunEvent[] = [];
  for await (const event of graph.stream({ n: 0 }, { mode: 'events' })) events.push(event);
  return events;
}

const ofType = <T extends RunEvent['type']>(events: RunEvent[], type: T) =>
  events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);

describe('step-end clock', () => {
  it('a synchronous step ends at its last node-end’s clock read, with a consistent duration', async () => {
    tickingClock();
    const events = await eventsOf('sync');
    const nodeEnds = ofType(events, 'node-end');
    const stepStarts = ofType(events, 'step-start');
    const stepEnds = ofType(events, 'step-end');
    expect(stepEnds.map((e) => e.ts)).toEqual(nodeEnds.map((e) => e.ts));
    for (const [i, end] of stepEnds.entries()) {
      expect(end.durationMs).toBe(end.ts - (stepStarts[i] as RunEvent).ts);
      expect(end.durationMs).toBeGreaterThan(0);
    }
    const stamps = events.map((e) => e.ts);
    expect(stamps).toEqual([...stamps].sort((x, y) => x - y));
  });

  it('a step that awaited reads the clock again for its end', async () => {
    tickingClock();
    const events = await eventsOf('async');
    const [endA] = ofType(events, 'node-end');
    const [stepEndA] = ofType(events, 'step-end');
    expect(stepEndA?.ts).toBeGreaterThan(endA?.ts as number);
  });
});
