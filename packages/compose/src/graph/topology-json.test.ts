import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { appendReducer } from '../state/reducers.js';
import { END, START } from '../vocabulary/constants.js';
import { Graph } from './graph.js';
import { StateGraph } from './state-graph.js';

const State = z.object({ log: z.array(z.string()).default([]), done: z.boolean().default(false) });
const noop = () => ({});

function inner() {
  return new StateGraph(State)
    .addNode('x', noop)
    .addEdge(START, 'x')
    .addEdge('x', END)
    .compile({ name: 'inner' });
}

function sample() {
  return new StateGraph(State, { reducers: { log: appendReducer } })
    .addNode('plan', noop, { metadata: { role: 'planner' } })
    .addNode('review', noop, { defer: true })
    .addNode('work', noop, { goto: ['review'] })
    .addNode('sub', inner())
    .addEdge(START, 'plan')
    .addConditionalEdges('plan', (s) => (s.done ? END : 'work'), ['work', END])
    .addEdge('work', 'sub')
    .addEdge(['plan', 'sub'], 'review')
    .addEdge('review', END)
    .compile({ name: 'sample', mode: 'pregel' });
}

describe('toJSON()', () => {
  it('describes nodes with their kind, metadata, defer flag and nested subgraphs', () => {
    const json = sample().toJSON();
    expect(json).toMatchObject({ name: 'sample', kind: 'state', mode: 'pregel' });
    expect(json.nodes).toEqual([
      { id: START, kind: 'function' },
      { id: 'plan', kind: 'function', metadata: { role: 'planner' } },
      { id: 'review', kind: 'function', defer: true },
      { id: 'work', kind: 'function' },
      { id: 'sub', kind: 'subgraph', subgraph: inner().toJSON() },
      { id: END, kind: 'function' },
    ]);
    expect(json.nodes[4]?.subgraph?.nodes.map((n) => n.id)).toEqual([START, 'x', END]);
  });

  it('describes edges by kind: static, conditional with their possible targets, join and goto', () => {
    const json = sample().toJSON();
    expect(json.edges).toEqual([
      { source: START, target: 'plan', kind: 'static' },
      { source: 'work', target: 'sub', kind: 'static' },
      { source: 'review', target: END, kind: 'static' },
      { source: 'plan', target: 'review', kind: 'join' },
      { source: 'sub', target: 'review', kind: 'join' },
      { source: 'plan', target: 'work', kind: 'conditional' },
      { source: 'plan', target: END, kind: 'conditional' },
      { source: 'work', target: 'review', kind: 'goto' },
    ]);
    expect(json.joins).toEqual([{ sources: ['plan', 'sub'], target: 'review' }]);
    expect(json.state).toEqual([
      { key: 'log', reducer: true },
      { key: 'done', reducer: false },
    ]);
  });

  it('marks a router without declared targets as dynamic, to every node and END', () => {
    const json = new StateGraph(State)
      .addNode('a', noop)
      .addNode('b', noop)
      .addEdge(START, 'a')
      .addConditionalEdges('a', () => END)
      .addEdge('b', END)
      .compile()
      .toJSON();
    const conditional = json.edges.filter((e) => e.kind === 'conditional');
    expect(conditional).toEqual([
      { source: 'a', target: 'a', kind: 'conditional', dynamic: true },
      { source: 'a', target: 'b', kind: 'conditional', dynamic: true },
      { source: 'a', target: END, kind: 'conditional', dynamic: true },
    ]);
  });

  it('is plain JSON and reports the mode and kind of dataflow graphs', () => {
    const app = new Graph<number, number>()
      .addNode('inc', (n: number) => n + 1)
      .addEdge(START, 'inc')
      .addEdge('inc', END)
      .compile({ mode: 'dag', name: 'flow' });
    const json = app.toJSON();
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
    expect(json).toMatchObject({ name: 'flow', kind: 'dataflow', mode: 'dag' });
    expect(json.state).toBeUndefined();
    expect(JSON.parse(JSON.stringify(sample().toJSON()))).toEqual(sample().toJSON());
  });
});

describe('toMermaid()', () => {
  it('draws a flowchart with arrows per edge kind and subgraphs expanded', () => {
    const lines = sample().toMermaid().split('\n');
    expect(lines[0]).toBe('flowchart TD');
    expect(lines).toContain('  __start__([start])');
    expect(lines).toContain('  plan["plan"]');
    expect(lines).toContain('  __start__ --> plan');
    expect(lines).toContain('  plan -.-> work');
    expect(lines).toContain('  plan ==> review');
    expect(lines).toContain('  work -.-> review');
    const open = lines.indexOf('  subgraph sub ["sub"]');
    expect(open).toBeGreaterThan(0);
    expect(lines[open + 1]).toBe('    sub____start__([start])');
    expect(lines).toContain('    sub____start__ --> sub__x');
    expect(lines.filter((l) => l.trim() === 'end')).toHaveLength(1);
  });

  it('gives distinct, Mermaid-safe ids to names that sanitize alike or are Mermaid keywords', () => {
    const drawing = new StateGraph(State)
      .addNode('end', noop)
      .addNode('a-b', noop)
      .addNode('a_b', noop)
      .addNode('say "hi"', noop)
      .addEdge(START, 'end')
      .addEdge('end', 'a-b')
      .addEdge('a-b', 'a_b')
      .addEdge('a_b', 'say "hi"')
      .addEdge('say "hi"', END)
      .compile()
      .toMermaid();
    const nodeLines = drawing.split('\n').filter((l) => l.includes('['));
    const ids = nodeLines.map((l) => l.trim().split(/[[(]/)[0]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).not.toContain('end');
    expect(drawing).toContain('["say #quot;hi#quot;"]');
    expect(drawing.split('\n').filter((l) => l.trim() === 'end')).toHaveLength(0);
    const edges = drawing.split('\n').filter((l) => l.includes('-->'));
    expect(new Set(edges).size).toBe(5);
  });
});
