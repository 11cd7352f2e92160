import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { NodeError } from '../errors/node-error.js';
import type { RunEvent } from '../events/run-event.js';
import type { CompiledGraph } from '../graph/compiled-graph.js';
import { StateGraph } from '../graph/state-graph.js';
import { END, START } from '../vocabulary/constants.js';

const State = z.object({ n: z.number() });

/** START → n0 → … → n{size-1} → END, each node adding one (and `fail` throwing at that node). */
function chain(size: number, fail?: number, ran: string[] = []) {
  // biome-ignore lint/suspicious/noExplicitAny: generated graph; the builder type grows with every node name
  let graph: any = new StateGraph(State);
  for (let i = 0; i < size; i++) {
    graph = graph.addNode(`n${i}`, (s: { n: number }) => {
      ran.push(`n${i}`);
      if (i === fail) throw new Error(`n${i} broke`);
      return { n: s.n + 1 };
    });
  }
  graph = graph.addEdge(START, 'n0');
  for (let i = 1; i < size; i++) graph = graph.addEdge(`n${i - 1}`, `n${i}`);
  return graph.addEdge(`n${size - 1}`, END).compile({ maxSteps: size + 1 }) as CompiledGraph<
    { n: number },
    { n: number },
    string
  >;
}

async function all<T>(source: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of source) items.push(item);
  return items;
}

/** What an event says, without its run id and clock readings (which differ between two runs). */
const gist = (event: RunEvent) =>
  `${event.type}:${'node' in event ? event.node : ''}:${'step' in event ? event.step : ''}`;

describe('stream({ batched: true })', () => {
  it('yields the same events in the same order as the unbatched stream, in far fewer turns', async () => {
    const app = chain(50);
    const one = await all(app.stream({ n: 0 }, { mode: 'events' }));
    const batches = await all(app.stream({ n: 0 }, { mode: 'events', batched: true }));
    expect(batches.flat().map(gist)).toEqual(one.map(gist));
    expect(one.filter((e) => e.type === 'node-end')).toHaveLength(50);
    for (const batch of batches) expect(batch.length).toBeGreaterThan(0);
    // Four events a step from a synchronous chain come in bursts, not one at a time.
    expect(batches.length).toBeLessThan(one.length / 4);
  });

  it('batches tagged parts of several modes, in the order things happened', async () => {
    const app = chain(3);
    const one = await all(app.stream({ n: 0 }, { mode: ['updates', 'values'] }));
    const batches = await all(app.stream({ n: 0 }, { mode: ['updates', 'values'], batched: true }));
    expect(batches.flat()).toEqual(one);
    expect(one.at(-1)).toEqual(['values', { n: 3 }]);
  });

  it('delivers the parts before a node failure, then throws it', async () => {
    const app = chain(5, 3);
    const seen: unknown[] = [];
    const error = await (async () => {
      for await (const batch of app.stream({ n: 0 }, { mode: 'updates', batched: true })) seen.push(...batch);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NodeError);
    expect(seen.map((part) => (part as { node: string }).node)).toEqual(['n0', 'n1', 'n2']);
  });

  it('breaking out after the first batch cancels the run before its end', async () => {
    const ran: string[] = [];
    const app = chain(400, undefined, ran);
    let seen: RunEvent[] = [];
    for await (const batch of app.stream({ n: 0 }, { mode: 'events', batched: true })) {
      seen = batch;
      break;
    }
    // The run waits once 64 parts are queued; the consumer's break aborted it there, and the loop's
    // exit waited for its end, so no node runs after it.
    expect(seen[0]?.type).toBe('run-start');
    expect(ran.length).toBeGreaterThan(0);
    expect(ran.length).toBeLessThan(400);
    const count = ran.length;
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toHaveLength(count);
  });

  it('is typed as arrays of the mode’s parts', () => {
    const app = chain(1);
    expectTypeOf(app.stream({ n: 0 }, { mode: 'events', batched: true })).toEqualTypeOf<
      AsyncIterableIterator<RunEvent[]>
    >();
    expectTypeOf(app.stream({ n: 0 }, { mode: 'events' })).toEqualTypeOf<AsyncIterableIterator<RunEvent>>();
    expectTypeOf(app.stream({ n: 0 }, { mode: 'values', batched: false })).toEqualTypeOf<
      AsyncIterableIterator<{ n: number }>
    >();
  });
});
