import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { END, START } from '../vocabulary/constants.js';
import { Graph } from './graph.js';
import { StateGraph } from './state-graph.js';

describe('addPassthrough', () => {
  it('passes a dataflow value through unchanged, as a point to branch from', async () => {
    const app = new Graph<string, string>()
      .addPassthrough('fork')
      .addNode('upper', (text: string) => text.toUpperCase())
      .addEdge(START, 'fork')
      .addConditionalEdges('fork', (text) => (text.length > 3 ? 'upper' : END), ['upper', END])
      .addEdge('upper', END)
      .compile();
    expect(await app.invoke('hello')).toBe('HELLO');
    expect(await app.invoke('hi')).toBe('hi');
  });

  it('joins several branches (outputKey fan-in) in DAG mode, and is drawn as a passthrough', async () => {
    const app = new Graph<number, { a: number; b: number }>()
      .addNode('a', (n: number) => n + 1, { outputKey: 'a' })
      .addNode('b', (n: number) => n * 2, { outputKey: 'b' })
      .addPassthrough('joined')
      .addEdge(START, 'a')
      .addEdge(START, 'b')
      .addEdge(['a', 'b'], 'joined')
      .addEdge('joined', END)
      .compile({ mode: 'dag' });
    expect(await app.invoke(5)).toEqual({ a: 6, b: 10 });
    const joined = app.toJSON().nodes.find((node) => node.id === 'joined');
    expect(joined?.metadata).toBeUndefined();
    expect(app.spec.nodes.get('joined')?.options.kind).toBe('passthrough');
  });

  it('writes nothing in a state graph', async () => {
    const app = new StateGraph(z.object({ n: z.number() }))
      .addPassthrough('check')
      .addNode('double', (s) => ({ n: s.n * 2 }))
      .addEdge(START, 'check')
      .addConditionalEdges('check', (s) => (s.n > 0 ? 'double' : END), ['double', END])
      .addEdge('double', END)
      .compile();
    expect(await app.invoke({ n: 2 })).toEqual({ n: 4 });
    expect(await app.invoke({ n: -1 })).toEqual({ n: -1 });
    const updates = [];
    for await (const part of app.stream({ n: -1 }, { mode: 'updates' })) updates.push(part);
    expect(updates).toEqual([]); // no write, so no update is reported
  });

  it('reports a taken name at compile()', () => {
    const graph = new Graph<number, number>()
      .addNode('a', (n: number) => n)
      .addPassthrough('b' as string)
      .addPassthrough('a' as string);
    expect(() => graph.compile()).toThrow(/a node named "a" already exists/);
  });
});
