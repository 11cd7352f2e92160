import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { NodeError } from '../errors/node-error.js';
import type { RunEvent } from '../events/run-event.js';
import { appendReducer, sumReducer } from '../state/reducers.js';
import { END, START } from '../vocabulary/constants.js';
import { Send } from '../vocabulary/send.js';
import { Graph } from './graph.js';
import { StateGraph } from './state-graph.js';

const Shared = z.object({
  log: z.array(z.string()).default([]),
  total: z.number().default(0),
  last: z.string().optional(),
});
const reducers = { log: appendReducer, total: sumReducer };

/** A state subgraph: c1 → c2, appending to `log`, adding to `total`, and setting `last`. */
function child(name = 'child') {
  return new StateGraph(Shared, { reducers })
    .addNode('c1', () => ({ log: 'c1', total: 1 }))
    .addNode('c2', (s) => ({ log: `c2 saw ${s.log.length}`, last: 'child' }))
    .addEdge(START, 'c1')
    .addEdge('c1', 'c2')
    .addEdge('c2', END)
    .compile({ name });
}

describe('subgraphs', () => {
  it('applies a state subgraph’s writes through the parent’s reducers, without doubling appends or sums', async () => {
    const parent = new StateGraph(Shared, { reducers })
      .addNode('p1', () => ({ log: 'p1', total: 10 }))
      .addNode('sub', child())
      .addNode('p2', () => ({ log: 'p2' }))
      .addEdge(START, 'p1')
      .addEdge('p1', 'sub')
      .addEdge('sub', 'p2')
      .addEdge('p2', END)
      .compile();
    expect(await parent.invoke({ log: ['in'], total: 5 })).toEqual({
      log: ['in', 'p1', 'c1', 'c2 saw 3', 'p2'],
      total: 16,
      last: 'child',
    });
  });

  it('does not rewrite keys the subgraph left alone, so a sibling may write them in the same step', async () => {
    const quiet = new StateGraph(Shared, { reducers })
      .addNode('only', () => ({ log: 'quiet' }))
      .addEdge(START, 'only')
      .addEdge('only', END)
      .compile();
    const parent = new StateGraph(Shared, { reducers })
      .addNode('sub', quiet)
      .addNode('sibling', () => ({ last: 'sibling' }))
      .addEdge(START, 'sub')
      .addEdge(START, 'sibling')
      .addEdge(['sub', 'sibling'], END)
      .compile();
    expect(await parent.invoke({ last: 'before' })).toMatchObject({ log: ['quiet'], last: 'sibling' });
  });

  it('reports a subgraph and a sibling writing one last-value key in a step as a conflict', async () => {
    const parent = new StateGraph(Shared, { reducers })
      .addNode('sub', child())
      .addNode('sibling', () => ({ last: 'sibling' }))
      .addEdge(START, 'sub')
      .addEdge(START, 'sibling')
      .addEdge(['sub', 'sibling'], END)
      .compile();
    await expect(parent.invoke({})).rejects.toMatchObject({
      code: 'WRITE_CONFLICT',
      nodes: ['sub', 'sibling'],
    });
  });

  it('keeps keys only the subgraph has inside it, and gives it only the keys it has', async () => {
    const Inner = z.object({ log: z.array(z.string()).default([]), scratch: z.string().default('') });
    const inner = new StateGraph(Inner, { reducers: { log: appendReducer } })
      .addNode('work', (s) => ({ scratch: 'notes', log: `inner keys ${Object.keys(s).sort().join(',')}` }))
      .addEdge(START, 'work')
      .addEdge('work', END)
      .compile();
    const parent = new StateGraph(Shared, { reducers })
      .addNode('sub', inner)
      .addEdge(START, 'sub')
      .addEdge('sub', END)
      .compile();
    expect(await parent.invoke({ last: 'x' })).toEqual({
      log: ['inner keys log,scratch'],
      total: 0,
      last: 'x',
    });
  });

  it('reports nested events with the node path and the parent’s run id', async () => {
    const events: RunEvent[] = [];
    const parent = new StateGraph(Shared, { reducers })
      .addNode('sub', child())
      .addEdge(START, 'sub')
      .addEdge('sub', END)
      .compile();
    await parent.invoke({}, { callbacks: { onEvent: (e) => events.push(e) }, runId: 'r' });
    const trail = events.map((e) => `${e.type}:${e.path.join('/')}`);
    expect(trail).toEqual([
      'run-start:',
      'step-start:',
      'node-start:sub',
      'step-start:sub',
      'node-start:sub/c1',
      'node-end:sub/c1',
      'step-end:sub',
      'step-start:sub',
      'node-start:sub/c2',
      'node-end:sub/c2',
      'step-end:sub',
      'node-end:sub',
      'step-end:',
      'run-end:',
    ]);
    expect(new Set(events.map((e) => e.runId))).toEqual(new Set(['r']));
    const steps = events.filter((e) => e.type === 'step-start');
    expect(steps.map((e) => e.parentTaskId)).toEqual([undefined, '0:sub:0', '0:sub:0']);
    expect(steps.every((e) => e.key === undefined)).toBe(true);
  });

  it('names the enclosing task and the key on the steps of a graph run with runSubgraph', async () => {
    const events: RunEvent[] = [];
    const inner = child();
    const parent = new StateGraph(Shared, { reducers })
      .addNode('fan', async (_state, ctx) => {
        await Promise.all(['call_a', 'call_b'].map((key) => ctx.runSubgraph(inner, {}, { key })));
        return {};
      })
      .addEdge(START, 'fan')
      .addEdge('fan', END)
      .compile();
    await parent.invoke({}, { callbacks: { onEvent: (e) => events.push(e) } });
    const nested = events.filter((e) => e.type === 'step-start' && e.path.length === 1);
    expect(
      nested.map((e) => e.type === 'step-start' && `${e.parentTaskId} ${e.key} ${e.step}`).sort(),
    ).toEqual(['0:fan:0 call_a 0', '0:fan:0 call_a 1', '0:fan:0 call_b 0', '0:fan:0 call_b 1']);
  });

  it('stamps every event of a nested run with its scope, so parallel runs at one path stay apart', async () => {
    const events: RunEvent[] = [];
    const inner = child();
    const middle = new StateGraph(Shared, { reducers })
      .addNode('deep', async (_state, ctx) => {
        await ctx.runSubgraph(inner, {}, { key: 'k' });
        return {};
      })
      .addEdge(START, 'deep')
      .addEdge('deep', END)
      .compile();
    const parent = new StateGraph(Shared, { reducers })
      .addNode('fan', async (_state, ctx) => {
        await Promise.all(['call_a', 'call_b'].map((key) => ctx.runSubgraph(middle, {}, { key })));
        return {};
      })
      .addEdge(START, 'fan')
      .addEdge('fan', END)
      .compile();
    await parent.invoke({}, { callbacks: { onEvent: (e) => events.push(e) } });
    const scopesAt = (depth: number) =>
      [...new Set(events.filter((e) => e.path.length >= depth).map((e) => e.scope))].sort();
    expect(events.filter((e) => e.path.length === 0).every((e) => e.scope === undefined)).toBe(true);
    expect(events.find((e) => e.type === 'node-start' && e.node === 'fan')?.scope).toBeUndefined();
    expect(scopesAt(3)).toEqual(['/0:fan:0#call_a/0:deep:0#k', '/0:fan:0#call_b/0:deep:0#k']);
    const nodes = events.filter((e) => e.type === 'node-end' && e.path.join('/') === 'fan/deep/c1');
    expect(nodes.map((e) => e.scope).sort()).toEqual(scopesAt(3));
    const middles = events.filter((e) => e.type === 'node-start' && e.path.join('/') === 'fan/deep');
    expect(middles.map((e) => e.scope).sort()).toEqual(['/0:fan:0#call_a', '/0:fan:0#call_b']);
  });

  it('fails with a NodeError carrying the inner node’s path', async () => {
    const failing = new StateGraph(Shared)
      .addNode('broken', () => {
        throw new Error('inner failure');
      })
      .addEdge(START, 'broken')
      .addEdge('broken', END)
      .compile();
    const parent = new StateGraph(Shared)
      .addNode('sub', failing)
      .addEdge(START, 'sub')
      .addEdge('sub', END)
      .compile();
    const error = await parent.invoke({}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NodeError);
    expect(error).toMatchObject({ node: 'broken', path: ['sub', 'broken'] });
  });

  it('passes the run’s signal and config to nested nodes', async () => {
    const controller = new AbortController();
    let nestedSawAbort = false;
    let nestedConfig: unknown;
    const inner = new StateGraph(Shared)
      .addNode('wait', async (_s, ctx) => {
        nestedConfig = ctx.config.tenant;
        const fired = new Promise<void>((resolve) =>
          ctx.signal.addEventListener('abort', () => resolve(), { once: true }),
        );
        controller.abort();
        await fired;
        nestedSawAbort = ctx.signal.aborted;
        return {};
      })
      .addEdge(START, 'wait')
      .addEdge('wait', END)
      .compile();
    const parent = new StateGraph(Shared)
      .addNode('sub', inner)
      .addEdge(START, 'sub')
      .addEdge('sub', END)
      .compile();
    await expect(
      parent.invoke({}, { signal: controller.signal, config: { tenant: 't1' } }),
    ).rejects.toMatchObject({ code: 'ABORTED' });
    expect(nestedSawAbort).toBe(true);
    expect(nestedConfig).toBe('t1');
  });

  it('runs a dataflow graph as a dataflow node', async () => {
    const inner = new Graph<string, number>()
      .addNode('len', (t: string) => t.length)
      .addEdge(START, 'len')
      .addEdge('len', END)
      .compile();
    const outer = new Graph<string, number>()
      .addNode('trim', (t: string) => t.trim())
      .addNode('measure', inner)
      .addNode('double', (n: number) => n * 2)
      .addEdge(START, 'trim')
      .addEdge('trim', 'measure')
      .addEdge('measure', 'double')
      .addEdge('double', END)
      .compile();
    expect(await outer.invoke('  abc ')).toBe(6);
  });

  it('runs a state graph as a dataflow node (its final state is the output)', async () => {
    const outer = new Graph<{ log: string[] }, number>()
      .addNode('state', child())
      .addNode('count', (s: z.infer<typeof Shared>) => s.log.length + s.total)
      .addEdge(START, 'state')
      .addEdge('state', 'count')
      .addEdge('count', END)
      .compile();
    expect(await outer.invoke({ log: ['x'] })).toBe(4);
  });

  it('runs one subgraph per Send, each with its own input, applied in Send order', async () => {
    const parent = new StateGraph(Shared, { reducers })
      .addNode('sub', child())
      .addConditionalEdges(START, () => [
        new Send('sub', { log: ['a'] }),
        new Send('sub', { log: ['b', 'b'] }),
      ])
      .addEdge('sub', END)
      .compile();
    const error = await parent.invoke({}).catch((e: unknown) => e);
    // Both tasks set the last-value key `last`: a conflict between the two Sends of "sub".
    expect(error).toMatchObject({ code: 'WRITE_CONFLICT', nodes: ['sub', 'sub'] });
    const appendOnly = new StateGraph(Shared, { reducers })
      .addNode(
        'sub',
        new StateGraph(Shared, { reducers })
          .addNode('c', (s) => ({ log: `saw ${s.log.join('')}` }))
          .addEdge(START, 'c')
          .addEdge('c', END)
          .compile(),
      )
      .addConditionalEdges(START, () => [
        new Send('sub', { log: ['a'] }),
        new Send('sub', { log: ['b', 'b'] }),
      ])
      .addEdge('sub', END)
      .compile();
    expect((await appendOnly.invoke({})).log).toEqual(['saw a', 'saw bb']);
  });
});
