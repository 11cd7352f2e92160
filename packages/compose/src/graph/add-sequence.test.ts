import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { END, START } from '../vocabulary/constants.js';
import { StateGraph } from './state-graph.js';

const State = z.object({ text: z.string() });

describe('addSequence', () => {
  it('chains the nodes in order; edges into and out of the chain are the caller’s', async () => {
    const app = new StateGraph(State)
      .addSequence([
        ['trim', (s) => ({ text: s.text.trim() })],
        ['shout', (s) => ({ text: s.text.toUpperCase() })],
        ['mark', (s) => ({ text: `${s.text}!` })],
      ])
      .addEdge(START, 'trim')
      .addEdge('mark', END)
      .compile();
    expect(await app.invoke({ text: ' hi ' })).toEqual({ text: 'HI!' });
    expect(
      app
        .toJSON()
        .edges.filter((e) => e.kind === 'static')
        .map((e) => `${e.source}>${e.target}`),
    ).toEqual(expect.arrayContaining(['trim>shout', 'shout>mark']));
  });

  it('reports an empty sequence and a taken name at compile()', () => {
    const empty = new StateGraph(State)
      .addNode('a', () => ({}))
      .addSequence([])
      .addEdge(START, 'a');
    expect(() => empty.compile()).toThrow(/addSequence needs at least one node/);
    const taken = new StateGraph(State)
      .addNode('a', () => ({}))
      .addSequence([['a' as string, () => ({})]])
      .addEdge(START, 'a');
    expect(() => taken.compile()).toThrow(/a node named "a" already exists/);
  });
});
