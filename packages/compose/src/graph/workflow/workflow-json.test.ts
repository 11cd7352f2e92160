import { describe, expect, it } from 'vitest';
import { END, START } from '../../vocabulary/constants.js';
import { fromField, mapFields, toField } from './field-mapping.js';
import { Workflow } from './workflow.js';

/** START → lookup (data+control); lookup ⇢ greet (data only); lookup → audit → greet (control only). */
function greeting() {
  return new Workflow<{ id: string }, { text: string }>()
    .addNode('lookup', (id: string) => ({ user: { name: `user-${id}` } }))
    .addNode('audit', (id: string) => id.length)
    .addNode('greet', (input: { name: string }) => `hi ${input.name}`)
    .addInput('lookup', START, fromField('id'))
    .addInput('audit', START, fromField('id'))
    .addDependency('audit', 'lookup')
    .addInputWithOptions('greet', 'lookup', [mapFields('user.name', 'name')], { noDirectDependency: true })
    .addDependency('greet', 'audit')
    .addInput(END, 'greet', toField('text'))
    .compile();
}

describe('Workflow toJSON / toMermaid: data and control edges with their field mappings', () => {
  it('tells data-only, control-only and data+control edges apart, with the mappings they carry', () => {
    const { edges } = greeting().toJSON();
    const edge = (source: string, target: string) =>
      edges.find((e) => e.source === source && e.target === target);
    expect(edge(START, 'lookup')).toEqual({
      source: START,
      target: 'lookup',
      kind: 'static',
      flow: 'data+control',
      mappings: [{ from: 'id', to: '' }],
    });
    expect(edge('lookup', 'greet')).toEqual({
      source: 'lookup',
      target: 'greet',
      kind: 'data',
      flow: 'data',
      mappings: [{ from: 'user.name', to: 'name' }],
    });
    expect(edge('audit', 'greet')).toEqual({
      source: 'audit',
      target: 'greet',
      kind: 'static',
      flow: 'control',
    });
    expect(edge('greet', END)).toMatchObject({ flow: 'data+control', mappings: [{ from: '', to: 'text' }] });
  });

  it('merges several mappings from one source into one edge, and marks branches as control', () => {
    const app = new Workflow<{ a: number; b: number }, number>()
      .addNode('sum', (input: { x: number; y: number }) => input.x + input.y)
      .addNode('neg', (n: number) => -n)
      .addInput('sum', START, mapFields('a', 'x'), mapFields('b', 'y'))
      .addBranch('sum', (n: number) => (n > 0 ? 'neg' : END), ['neg', END])
      .addInputWithOptions('neg', 'sum', [toField('')], { noDirectDependency: true })
      .addInput(END, 'neg')
      .compile();
    const { edges } = app.toJSON();
    expect(edges.filter((e) => e.source === START)).toEqual([
      {
        source: START,
        target: 'sum',
        kind: 'static',
        flow: 'data+control',
        mappings: [
          { from: 'a', to: 'x' },
          { from: 'b', to: 'y' },
        ],
      },
    ]);
    expect(edges.filter((e) => e.kind === 'conditional').map((e) => [e.target, e.flow])).toEqual([
      ['neg', 'control'],
      [END, 'control'],
    ]);
  });

  it('labels Mermaid edges with their mappings; data-only edges end in a circle', () => {
    const lines = greeting()
      .toMermaid()
      .split('\n')
      .map((line) => line.trim());
    expect(lines).toContain('__start__ -->|"id → *"| lookup');
    expect(lines).toContain('lookup --o|"user.name → name"| greet');
    expect(lines).toContain('audit -->|control| greet');
    expect(lines).toContain('greet -->|"* → text"| __end__');
  });

  it('leaves graphs that are not workflows as they were drawn', async () => {
    const { Graph } = await import('../graph.js');
    const app = new Graph<string, string>()
      .addNode('a', (s: string) => s)
      .addEdge(START, 'a')
      .addEdge('a', END)
      .compile();
    expect(app.toJSON().edges.every((e) => e.flow === undefined && e.mappings === undefined)).toBe(true);
    expect(app.toMermaid()).not.toContain('|');
  });
});
