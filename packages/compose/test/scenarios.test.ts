import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  appendReducer,
  END,
  Graph,
  type RunEvent,
  Send,
  START,
  StateGraph,
  sumReducer,
} from '../src/index.js';

describe('scenarios', () => {
  it('a loop with a back edge counts to 1000', async () => {
    const counter = new StateGraph(z.object({ count: z.number() }))
      .addNode('increment', (s) => ({ count: s.count + 1 }))
      .addEdge(START, 'increment')
      .addConditionalEdges('increment', (s) => (s.count < 1000 ? 'increment' : END), ['increment', END])
      .compile({ maxSteps: 1000 });
    expect(await counter.invoke({ count: 0 })).toEqual({ count: 1000 });
    await expect(counter.invoke({ count: 0 }, { maxSteps: 999 })).rejects.toMatchObject({
      code: 'STEP_LIMIT',
    });
  });

  it('a 100-wide fan-out fans back in through an append reducer, in node order', async () => {
    const width = 100;
    const names = Array.from({ length: width }, (_, i) => `worker${String(i).padStart(3, '0')}`);
    let graph = new StateGraph(
      z.object({ results: z.array(z.string()).default([]), summary: z.string().default('') }),
      {
        reducers: { results: appendReducer },
      },
    ) as StateGraph<
      z.ZodObject<{ results: z.ZodDefault<z.ZodArray<z.ZodString>>; summary: z.ZodDefault<z.ZodString> }>,
      { results: typeof appendReducer },
      string
    >;
    for (const [i, name] of names.entries()) {
      graph = graph
        .addNode(name, async () => {
          // Later workers finish first: the result order must not follow finish order.
          for (let t = 0; t < (width - i) % 7; t++)
            await new Promise<void>((resolve) => setImmediate(resolve));
          return { results: name };
        })
        .addEdge(START, name);
    }
    const app = graph
      .addNode('summarize', (s) => ({ summary: `${s.results.length} results` }))
      .addEdge(names, 'summarize')
      .addEdge('summarize', END)
      .compile();
    const steps: number[] = [];
    const final = await app.invoke(
      {},
      {
        callbacks: { onEvent: (e: RunEvent) => void (e.type === 'step-start' && steps.push(e.tasks.length)) },
      },
    );
    expect(final.results).toEqual(names);
    expect(final.summary).toBe('100 results');
    expect(steps).toEqual([100, 1]);
  });

  it('Send map-reduces over 1000 items', async () => {
    const app = new StateGraph(
      z.object({
        items: z.array(z.number()),
        squares: z.array(z.number()).default([]),
        total: z.number().default(0),
      }),
      { reducers: { squares: appendReducer, total: sumReducer } },
    )
      .addNode('square', async (n: number) => ({ squares: n * n, total: n * n }))
      .addNode('report', (s) => ({ items: [s.squares.length] }))
      .addConditionalEdges(START, (s) => s.items.map((n) => new Send('square', n)))
      .addEdge('square', 'report')
      .addEdge('report', END)
      .compile();
    const items = Array.from({ length: 1000 }, (_, i) => i);
    const final = await app.invoke({ items });
    expect(final.squares).toEqual(items.map((n) => n * n));
    expect(final.total).toBe(items.reduce((sum, n) => sum + n * n, 0));
    expect(final.items).toEqual([1000]);
  });

  it('a nested subgraph runs inside its parent, applying its writes once and reporting its path', async () => {
    const Shared = z.object({ log: z.array(z.string()).default([]), score: z.number().default(0) });
    const reducers = { log: appendReducer, score: sumReducer };
    const review = new StateGraph(Shared, { reducers })
      .addNode('critique', () => ({ log: 'critique', score: 2 }))
      .addNode('revise', (s) => ({ log: `revise after ${s.log.length}`, score: 3 }))
      .addEdge(START, 'critique')
      .addEdge('critique', 'revise')
      .addEdge('revise', END)
      .compile({ name: 'review' });
    const app = new StateGraph(Shared, { reducers })
      .addNode('draft', () => ({ log: 'draft', score: 1 }))
      .addNode('review', review)
      .addNode('publish', (s) => ({ log: `publish ${s.score}` }))
      .addEdge(START, 'draft')
      .addEdge('draft', 'review')
      .addEdge('review', 'publish')
      .addEdge('publish', END)
      .compile();
    const paths: string[] = [];
    const final = await app.invoke(
      { log: ['brief'] },
      { callbacks: { onStart: (e) => paths.push(e.path.join('/')) } },
    );
    expect(final).toEqual({
      log: ['brief', 'draft', 'critique', 'revise after 3', 'publish 6'],
      score: 6,
    });
    expect(paths).toEqual(['draft', 'review', 'review/critique', 'review/revise', 'publish']);
    expect(app.toJSON().nodes.find((n) => n.id === 'review')?.subgraph?.name).toBe('review');
  });

  it('a DAG skips the branch its router did not take, and everything only that branch feeds', async () => {
    const ran: string[] = [];
    const step = (name: string) => (input: string) => {
      ran.push(name);
      return `${input}>${name}`;
    };
    const app = new Graph<string, string>()
      .addNode('classify', step('classify'))
      .addNode('cheap', step('cheap'))
      .addNode('cheapPolish', step('cheapPolish'))
      .addNode('expensive', step('expensive'))
      .addNode('expensivePolish', step('expensivePolish'))
      .addNode('deliver', (parts: string[]) => parts.join(' | '), { merge: (inputs) => inputs })
      .addEdge(START, 'classify')
      .addConditionalEdges('classify', (text) => (text.includes('!') ? 'expensive' : 'cheap'), [
        'cheap',
        'expensive',
      ])
      .addEdge('cheap', 'cheapPolish')
      .addEdge('expensive', 'expensivePolish')
      .addEdge('cheapPolish', 'deliver')
      .addEdge('expensivePolish', 'deliver')
      .addEdge('deliver', END)
      .compile({ mode: 'dag' });
    expect(await app.invoke('hello')).toBe('hello>classify>cheap>cheapPolish');
    expect(ran).toEqual(['classify', 'cheap', 'cheapPolish']);
    ran.length = 0;
    expect(await app.invoke('hello!')).toBe('hello!>classify>expensive>expensivePolish');
    expect(ran).toEqual(['classify', 'expensive', 'expensivePolish']);
  });
});
