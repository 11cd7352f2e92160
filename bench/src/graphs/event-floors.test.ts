import { describe, expect, it } from 'vitest';
import { chainEventBursts, readyEvents } from './event-floors.ts';
import { weftChain } from './weft-graphs.ts';

/** An event's kind and field names, in order: what a floor must make for each event of Weft's. */
const shape = (event: unknown) => {
  const fields = event as Record<string, unknown>;
  return `${String(fields.type)}(${Object.keys(fields).join(',')})`;
};

describe('the event floors', () => {
  it('make the events of a Weft chain run: same kinds, same order, same fields', async () => {
    const weft: unknown[] = [];
    for await (const event of weftChain(20).stream({ n: 0 }, { mode: 'events' })) weft.push(event);
    const floor: unknown[] = [];
    for await (const burst of chainEventBursts(20)()) floor.push(...burst);
    expect(floor.map(shape)).toEqual(weft.map(shape));
    const nodeEnds = (events: unknown[]) =>
      events.filter((event) => (event as { type: string }).type === 'node-end') as { output: unknown }[];
    expect(nodeEnds(floor).map((event) => event.output)).toEqual(nodeEnds(weft).map((event) => event.output));
  });

  it('hand events out in bursts that end a step once more than 64 are queued, as Weft waits', async () => {
    const bursts: { type: string }[][] = [];
    for await (const burst of chainEventBursts(100)()) bursts.push(burst);
    expect(bursts.map((burst) => burst.length)).toEqual([65, 68, 68, 68, 68, 65]);
    for (const burst of bursts.slice(0, -1)) expect(burst.at(-1)?.type).toBe('step-end');
  });

  it('hand ready events out one per turn, in order, then end', async () => {
    const events = [{ type: 'a' }, { type: 'b' }, { type: 'c' }];
    const seen: unknown[] = [];
    for await (const event of readyEvents(events)) seen.push(event);
    expect(seen).toEqual(events);
    expect(seen[0]).toBe(events[0]);
  });
});
