import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GraphValidationError, type ValidationIssue } from '../errors/graph-validation-error.js';
import { WeftError } from '../errors/weft-error.js';
import { END, START } from '../vocabulary/constants.js';
import { Chain } from './chain.js';
import { Graph } from './graph.js';
import { StateGraph } from './state-graph.js';

const schema = z.object({ n: z.number().default(0) });
const noop = () => ({});

/** Compiles and returns the validation error's issues (fails the test when compile succeeds). */
function issuesOf(compile: () => unknown): readonly ValidationIssue[] {
  try {
    compile();
  } catch (error) {
    expect(error).toBeInstanceOf(GraphValidationError);
    expect(WeftError.isInstance(error)).toBe(true);
    expect((error as GraphValidationError).code).toBe('GRAPH_INVALID');
    return (error as GraphValidationError).issues;
  }
  throw new Error('expected compile() to throw a GraphValidationError');
}

const kinds = (issues: readonly ValidationIssue[]) => issues.map((issue) => `${issue.kind}@${issue.at}`);

// Builders are typed against these mistakes; the tests go around the types on purpose.
// biome-ignore lint/suspicious/noExplicitAny: deliberately ill-typed builder calls
type Loose = any;

describe('compile() validation', () => {
  it('accepts a valid graph', () => {
    const app = new StateGraph(schema).addNode('a', noop).addEdge(START, 'a').addEdge('a', END).compile();
    expect(app.name).toBe('graph');
  });

  it('reports an edge to an unknown node, naming it and how to fix it', () => {
    const builder: Loose = new StateGraph(schema).addNode('a', noop).addEdge(START, 'a').addEdge('a', END);
    const issues = issuesOf(() => builder.addEdge('a', 'nowhere').compile());
    expect(kinds(issues)).toEqual(['unknown-node@a -> nowhere']);
    expect(issues[0]?.message).toContain('addNode("nowhere"');
  });

  it('reports an edge from an unknown node and a join with an unknown source', () => {
    const builder: Loose = new StateGraph(schema).addNode('a', noop).addEdge(START, 'a').addEdge('a', END);
    const issues = issuesOf(() => builder.addEdge('ghost', 'a').addEdge(['a', 'phantom'], END).compile());
    expect(kinds(issues)).toEqual(['unknown-node@ghost -> a', 'unknown-node@[a, phantom] -> __end__']);
  });

  it('reports a duplicate node without throwing from addNode', () => {
    const builder: Loose = new StateGraph(schema).addNode('a', noop);
    const chained = builder.addNode('a', noop).addEdge(START, 'a').addEdge('a', END);
    expect(kinds(issuesOf(() => chained.compile()))).toEqual(['duplicate-node@a']);
  });

  it('reports reserved and invalid names', () => {
    const builder: Loose = new StateGraph(schema);
    const issues = issuesOf(() =>
      builder
        .addNode(START, noop)
        .addNode(END, noop)
        .addNode('a|b', noop)
        .addNode('', noop)
        .addNode('ok', noop)
        .addEdge(START, 'ok')
        .addEdge('ok', END)
        .compile(),
    );
    expect(issues.map((i) => i.kind)).toEqual([
      'reserved-name',
      'reserved-name',
      'invalid-name',
      'invalid-name',
    ]);
  });

  it('reports something that is not a node implementation', () => {
    const builder: Loose = new StateGraph(schema);
    const issues = issuesOf(() => builder.addNode('a', 42).compile());
    expect(issues[0]).toMatchObject({ kind: 'invalid-option', at: 'a' });
  });

  it('reports a graph with no entry', () => {
    const issues = issuesOf(() => new StateGraph(schema).addNode('a', noop).addEdge('a', END).compile());
    expect(kinds(issues)).toEqual(['missing-entry@__start__']);
  });

  it('reports an unreachable node', () => {
    const issues = issuesOf(() =>
      new StateGraph(schema)
        .addNode('a', noop)
        .addNode('island', noop)
        .addEdge(START, 'a')
        .addEdge('a', END)
        .addEdge('island', END)
        .compile(),
    );
    expect(kinds(issues)).toEqual(['unreachable-node@island']);
  });

  it('reports a node that can never reach END (a closed loop)', () => {
    const issues = issuesOf(() =>
      new StateGraph(schema)
        .addNode('a', noop)
        .addNode('spin', noop)
        .addEdge(START, 'a')
        .addEdge('a', END)
        .addEdge(START, 'spin')
        .addEdge('spin', 'spin')
        .compile(),
    );
    expect(kinds(issues)).toEqual(['cannot-reach-end@spin']);
    expect(issues[0]?.message).toContain('addEdge("spin", END)');
  });

  it('counts declared router targets and gotos as paths', () => {
    const app = new StateGraph(schema)
      .addNode('c', noop)
      .addNode('b', noop)
      .addNode('a', noop, { goto: ['b'] })
      .addEdge(START, 'a')
      .addConditionalEdges('b', () => 'c', ['c'])
      .addEdge('c', END)
      .compile();
    expect(app.toJSON().nodes.map((n) => n.id)).toEqual([START, 'c', 'b', 'a', END]);
  });

  it('reports router targets and gotos that are not nodes', () => {
    const builder: Loose = new StateGraph(schema)
      .addNode('a', noop, { goto: ['missing'] } as Loose)
      .addEdge(START, 'a')
      .addEdge('a', END);
    const issues = issuesOf(() => builder.addConditionalEdges('a', () => END, ['zzz', END]).compile());
    expect(kinds(issues).sort()).toEqual(['undeclared-target@a -> missing', 'undeclared-target@a -> zzz']);
  });

  it('reports a conditional edge without a router function', () => {
    const builder: Loose = new StateGraph(schema).addNode('a', noop).addEdge(START, 'a').addEdge('a', END);
    expect(kinds(issuesOf(() => builder.addConditionalEdges('a', 'b').compile()))).toEqual([
      'invalid-edge@a',
    ]);
  });

  it('reports edges from END, into START and empty joins', () => {
    const builder: Loose = new StateGraph(schema).addNode('a', noop).addEdge(START, 'a').addEdge('a', END);
    const issues = issuesOf(() => builder.addEdge(END, 'a').addEdge('a', START).addEdge([], 'a').compile());
    expect(issues.map((i) => i.kind)).toEqual(['invalid-edge', 'invalid-edge', 'invalid-edge']);
  });

  it('reports a cycle in DAG mode, listing it', () => {
    const builder = new StateGraph(schema)
      .addNode('a', noop)
      .addNode('b', noop)
      .addNode('c', noop)
      .addEdge(START, 'a')
      .addEdge('a', 'b')
      .addEdge('b', 'c')
      .addEdge('c', 'a')
      .addEdge('c', END);
    expect(() => builder.compile()).not.toThrow();
    const issues = issuesOf(() => builder.compile({ mode: 'dag' }));
    expect(issues).toHaveLength(1);
    expect(issues[0]?.kind).toBe('dag-cycle');
    const cycle = issues[0]?.at.split(' -> ') ?? [];
    expect(cycle[0]).toBe(cycle[cycle.length - 1]);
    expect(new Set(cycle)).toEqual(new Set(['a', 'b', 'c']));
    expect(issues[0]?.message).toContain("mode 'pregel'");
  });

  it('asks a DAG router to declare its targets instead of reporting a bogus cycle', () => {
    const builder = new StateGraph(schema)
      .addNode('a', noop)
      .addNode('b', noop)
      .addEdge(START, 'a')
      .addConditionalEdges('a', () => 'b')
      .addEdge('b', END);
    expect(() => builder.compile()).not.toThrow();
    const issues = issuesOf(() => builder.compile({ mode: 'dag' }));
    expect(kinds(issues)).toEqual(['undeclared-target@a -> ?']);
    expect(issues[0]?.message).toContain('list its targets');
  });

  it('reports invalid retry and timeout options', () => {
    const builder: Loose = new StateGraph(schema)
      .addNode('a', noop, { timeoutMs: 0 })
      .addNode('b', noop, { retry: { maxAttempts: 0 } })
      .addNode('c', noop, { retry: { initialDelayMs: -1, backoffFactor: Number.NaN } })
      .addNode('d', noop, { timeoutMs: 1000, retry: { maxAttempts: 2, initialDelayMs: 0, jitter: false } })
      .addEdge(START, 'a')
      .addEdge('a', 'b')
      .addEdge('b', 'c')
      .addEdge('c', 'd')
      .addEdge('d', END);
    const issues = issuesOf(() => builder.compile());
    expect(kinds(issues)).toEqual([
      'invalid-option@a',
      'invalid-option@b',
      'invalid-option@c',
      'invalid-option@c',
    ]);
    expect(issues.map((i) => i.message).join(' ')).toMatch(
      /timeoutMs.*maxAttempts.*initialDelayMs.*backoffFactor/,
    );
  });

  it('reports an invalid maxSteps and unknown breakpoint nodes', () => {
    const builder = new StateGraph(schema).addNode('a', noop).addEdge(START, 'a').addEdge('a', END);
    const loose: Loose = builder;
    expect(kinds(issuesOf(() => builder.compile({ maxSteps: 0 })))).toEqual(['invalid-option@maxSteps']);
    expect(kinds(issuesOf(() => loose.compile({ interruptBefore: ['x'] })))).toEqual([
      'unknown-node@interruptBefore: x',
    ]);
  });

  it('reports a dataflow join without a merge or output keys', () => {
    const builder = new Graph<number, number>()
      .addNode('a', (n: number) => n)
      .addNode('b', (n: number) => n)
      .addNode('c', (n: number) => n)
      .addEdge(START, 'a')
      .addEdge(START, 'b')
      .addEdge(['a', 'b'], 'c')
      .addEdge('c', END);
    expect(kinds(issuesOf(() => builder.compile()))).toEqual(['invalid-option@[a, b] -> c']);
  });

  it('collects every problem at once, in one error', () => {
    const builder = (new StateGraph(schema) as Loose)
      .addNode('a', noop)
      .addNode('a', noop)
      .addNode('island', noop)
      .addNode('loop', noop)
      .addEdge(START, 'a')
      .addEdge('a', 'loop')
      .addEdge('loop', 'loop')
      .addEdge('a', 'typo')
      .addEdge('island', END)
      .addConditionalEdges('a', () => END, ['nope', END]);
    let error: unknown;
    try {
      builder.compile({ name: 'broken' });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(GraphValidationError);
    const issues = (error as GraphValidationError).issues;
    expect(issues.map((i) => i.kind).sort()).toEqual(
      ['cannot-reach-end', 'duplicate-node', 'undeclared-target', 'unknown-node', 'unreachable-node'].sort(),
    );
    const message = (error as Error).message;
    expect(message).toContain('graph "broken" is invalid (5 problem(s))');
    for (const issue of issues) expect(message).toContain(issue.message);
  });

  it('reports an empty chain', () => {
    expect(kinds(issuesOf(() => new Chain<string>().compile()))).toEqual(['missing-entry@__start__']);
  });
});
