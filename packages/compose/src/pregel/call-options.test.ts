import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Graph } from '../graph/graph.js';
import { StateGraph } from '../graph/state-graph.js';
import { END, START } from '../vocabulary/constants.js';
import type { NodeContext } from './node-context.js';

type Seen = Record<string, unknown>;

/** A state graph whose nodes record the options they saw, under their path. */
function recorder(seen: Seen) {
  const record = (_: unknown, ctx: NodeContext) => {
    seen[ctx.path.join('/')] = ctx.options;
    return {};
  };
  return record;
}

function agentGraph(seen: Seen) {
  return new StateGraph(z.object({ n: z.number() }))
    .addNode('model', recorder(seen), { kind: 'model' })
    .addNode('tools', recorder(seen), { kind: 'tools' })
    .addEdge(START, 'model')
    .addEdge('model', 'tools')
    .addEdge('tools', END)
    .compile({ name: 'agent' });
}

function teamGraph(seen: Seen) {
  const team = new StateGraph(z.object({ n: z.number() }))
    .addNode('agent', agentGraph(seen))
    .addEdge(START, 'agent')
    .addEdge('agent', END)
    .compile({ name: 'team' });
  return new StateGraph(z.object({ n: z.number() }))
    .addNode('model', recorder(seen), { kind: 'model' })
    .addNode('sub', team)
    .addEdge(START, 'model')
    .addEdge('model', 'sub')
    .addEdge('sub', END)
    .compile();
}

describe('call options routed to nodes', () => {
  it('gives a node the options named for it, and no other node', async () => {
    const seen: Seen = {};
    await teamGraph(seen).invoke({ n: 1 }, { nodeOptions: { model: { temperature: 0 } } });
    expect(seen).toEqual({
      model: { temperature: 0 },
      'sub/agent/model': undefined,
      'sub/agent/tools': undefined,
    });
  });

  it('reaches a node inside subgraphs by its path', async () => {
    const seen: Seen = {};
    await teamGraph(seen).invoke({ n: 1 }, { nodeOptions: { 'sub/agent/model': { temperature: 0.5 } } });
    expect(seen).toEqual({
      model: undefined,
      'sub/agent/model': { temperature: 0.5 },
      'sub/agent/tools': undefined,
    });
  });

  it('reaches every node of a kind, and a node option wins over its kind option field by field', async () => {
    const seen: Seen = {};
    await teamGraph(seen).invoke(
      { n: 1 },
      {
        kindOptions: { model: { temperature: 1, maxTokens: 100 } },
        nodeOptions: { 'sub/agent/model': { temperature: 0 } },
      },
    );
    expect(seen).toEqual({
      model: { temperature: 1, maxTokens: 100 },
      'sub/agent/model': { temperature: 0, maxTokens: 100 },
      'sub/agent/tools': undefined,
    });
  });

  it('works in stream() and in dataflow graphs in DAG mode', async () => {
    const seen: Seen = {};
    const app = new Graph<number, number>()
      .addNode('a', (n: number, ctx) => {
        seen.a = ctx.options;
        return n + 1;
      })
      .addNode('b', (n: number, ctx) => {
        seen.b = ctx.options;
        return n * 2;
      })
      .addEdge(START, 'a')
      .addEdge('a', 'b')
      .addEdge('b', END)
      .compile({ mode: 'dag' });
    const parts = [];
    for await (const part of app.stream(1, { mode: 'updates', nodeOptions: { b: { x: 1 } } }))
      parts.push(part);
    expect(parts).toHaveLength(2);
    expect(seen).toEqual({ a: undefined, b: { x: 1 } });
  });

  it('rejects a name or path that names no node, naming it, before anything runs', async () => {
    const seen: Seen = {};
    const app = teamGraph(seen);
    await expect(app.invoke({ n: 1 }, { nodeOptions: { modle: {} } as never })).rejects.toThrow(
      /nodeOptions\["modle"\]: "modle" is not a node of graph "graph"/,
    );
    await expect(app.invoke({ n: 1 }, { nodeOptions: { 'sub/agent/modle': {} } })).rejects.toThrow(
      /"modle" is not a node of graph "agent"/,
    );
    await expect(app.invoke({ n: 1 }, { nodeOptions: { model: 0 as never } })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    expect(seen).toEqual({});
  });

  it('leaves ctx.options undefined in a run without call options', async () => {
    const seen: Seen = {};
    await teamGraph(seen).invoke({ n: 1 });
    expect(Object.values(seen)).toEqual([undefined, undefined, undefined]);
  });
});
