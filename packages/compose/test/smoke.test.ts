import { expect, test } from 'vitest';
import { z } from 'zod';
import { appendReducer, Chain, END, Graph, Send, START, StateGraph, sumReducer } from '../src/index.ts';

test('smoke', async () => {
  const g = new StateGraph(z.object({ count: z.number(), log: z.array(z.string()).default([]) }), {
    reducers: { log: appendReducer },
  })
    .addNode('inc', (s) => ({ count: s.count + 1, log: `inc${s.count}` }))
    .addEdge(START, 'inc')
    .addConditionalEdges('inc', (s) => (s.count < 3 ? 'inc' : END))
    .compile();
  expect(await g.invoke({ count: 0 })).toEqual({ count: 3, log: ['inc0', 'inc1', 'inc2'] });
  const d = new Graph<string, number>()
    .addNode('len', (t: string) => t.length)
    .addNode('dbl', (n: number) => n * 2)
    .addEdge(START, 'len')
    .addEdge('len', 'dbl')
    .addEdge('dbl', END)
    .compile();
  expect(await d.invoke('abc')).toBe(6);
  const s = new StateGraph(z.object({ items: z.array(z.number()), total: z.number().default(0) }), {
    reducers: { total: sumReducer },
  })
    .addNode('sq', (x: number) => ({ total: x * x }))
    .addConditionalEdges(START, (st) => st.items.map((i) => new Send('sq', i)))
    .addEdge('sq', END)
    .compile();
  expect((await s.invoke({ items: [1, 2, 3] })).total).toBe(14);
  const c = new Chain<string>()
    .pipe((t) => t.trim())
    .pipe((t) => t.split(' ').length)
    .compile();
  expect(await c.invoke(' a b ')).toBe(2);
  const parts: unknown[] = [];
  for await (const p of g.stream({ count: 0 }, { mode: ['updates', 'events'] })) parts.push(p[0]);
  expect(parts.length).toBeGreaterThan(5);
});
