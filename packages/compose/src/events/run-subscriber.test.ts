import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StateGraph } from '../graph/state-graph.js';
import { appendReducer } from '../state/reducers.js';
import { END, START } from '../vocabulary/constants.js';
import type { RunEvent } from './run-event.js';

const State = z.object({ log: z.array(z.string()).default([]) });
const reducers = { log: appendReducer };

/** A promise whose settling the test controls. */
function gate() {
  let open: () => void = () => undefined;
  let fail: (error: Error) => void = () => undefined;
  const promise = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}

/** A node that reports an agent event and records what it saw when the report resolved. */
function reporter(seen: string[]) {
  return new StateGraph(State, { reducers })
    .addNode('speak', async (_s, ctx) => {
      await ctx.report({
        type: 'agent',
        agent: 'bot',
        event: { author: 'bot', actions: { stateDelta: { x: 1 } } },
      });
      seen.push('speak went on');
      return { log: 'speak' };
    })
    .addNode('after', () => ({ log: 'after' }))
    .addEdge(START, 'speak')
    .addEdge('speak', 'after')
    .addEdge('after', END)
    .compile({ name: 'reporter' });
}

describe('observe: a subscriber the run waits for', () => {
  it('a node reporting an event goes on only once the subscriber settled it', async () => {
    const seen: string[] = [];
    const commit = gate();
    let reached!: () => void;
    const agentEventReached = new Promise<void>((resolve) => (reached = resolve));
    const run = reporter(seen).invoke(
      {},
      {
        observe: (event) => {
          if (event.type !== 'agent') return undefined;
          seen.push(`observed ${event.agent}`);
          reached();
          return commit.promise.then(() => void seen.push('committed'));
        },
      },
    );
    await agentEventReached;
    expect(seen).toEqual(['observed bot']);
    commit.open();
    expect(await run).toEqual({ log: ['speak', 'after'] });
    expect(seen).toEqual(['observed bot', 'committed', 'speak went on']);
  });

  it('sees every event in order, one at a time, and the run ends after the last one settled', async () => {
    const order: string[] = [];
    let busy = false;
    await reporter([]).invoke(
      {},
      {
        observe: async (event: RunEvent) => {
          expect(busy).toBe(false);
          busy = true;
          await new Promise((resolve) => setImmediate(resolve));
          order.push(event.type);
          busy = false;
        },
      },
    );
    expect(order[0]).toBe('run-start');
    expect(order.at(-1)).toBe('run-end');
    expect(order.indexOf('agent')).toBeGreaterThan(order.indexOf('node-start'));
  });

  it("a subscriber's rejection fails the node that reported the event, and nothing after it runs", async () => {
    const seen: string[] = [];
    const ran: string[] = [];
    const graph = reporter(seen);
    await expect(
      graph.invoke(
        {},
        {
          observe: (event) => {
            if (event.type === 'node-start') ran.push(event.node);
            return event.type === 'agent' ? Promise.reject(new Error('store down')) : undefined;
          },
        },
      ),
    ).rejects.toThrow(/store down/);
    expect(seen).toEqual([]);
    expect(ran).toEqual(['speak']);
  });

  it('a subscriber that throws fails the run too', async () => {
    await expect(
      reporter([]).invoke(
        {},
        {
          observe: (event) => {
            if (event.type === 'agent') throw new Error('bad subscriber');
          },
        },
      ),
    ).rejects.toThrow(/bad subscriber/);
  });

  it('works next to a stream: the events mode still yields every event', async () => {
    const observed: string[] = [];
    const streamed: string[] = [];
    for await (const event of reporter([]).stream(
      {},
      { mode: 'events', observe: (e) => void observed.push(e.type) },
    ))
      streamed.push(event.type);
    expect(observed).toEqual(streamed);
    expect(streamed).toContain('agent');
  });
});
