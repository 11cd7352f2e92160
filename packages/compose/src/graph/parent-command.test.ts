import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { WeftError } from '../errors/weft-error.js';
import { appendReducer } from '../state/reducers.js';
import { Command } from '../vocabulary/command.js';
import { END, START } from '../vocabulary/constants.js';
import { Send } from '../vocabulary/send.js';
import { StateGraph } from './state-graph.js';

const Team = z.object({
  log: z.array(z.string()).default([]),
  owner: z.string().default(''),
});
const reducers = { log: appendReducer };

/** An agent as a subgraph: `think` logs, `decide` hands off to `to` in the parent (or finishes). */
function agent(name: string, to: string | undefined) {
  return new StateGraph(Team, { reducers })
    .addNode('think', () => ({ log: `${name} thinks` }))
    .addNode('decide', () =>
      to === undefined
        ? { log: `${name} answers`, owner: name }
        : new Command({
            graph: Command.PARENT,
            goto: to,
            update: { log: `${name} hands off to ${to}`, owner: to },
          }),
    )
    .addNode('after', () => ({ log: `${name} after the hand-off` }))
    .addEdge(START, 'think')
    .addEdge('think', 'decide')
    .addEdge('decide', 'after')
    .addEdge('after', END)
    .compile({ name });
}

describe('Command.PARENT', () => {
  it('stops the subgraph, writes the update as the subgraph node’s write and routes the parent to goto', async () => {
    const team = new StateGraph(Team, { reducers })
      .addNode('bob', agent('bob', undefined))
      .addNode('alice', agent('alice', 'bob'), { goto: ['bob'] })
      .addEdge(START, 'alice')
      .addEdge('bob', END)
      .compile();
    const result = await team.invoke({ log: ['user asks'] });
    // The update goes through the parent's append reducer; `alice thinks` stayed inside the subgraph
    // (only the command's update reaches the parent) and alice's `after` never ran.
    expect(result).toEqual({
      log: ['user asks', 'alice hands off to bob', 'bob thinks', 'bob answers', 'bob after the hand-off'],
      owner: 'bob',
    });
  });

  it('routes to a Send with its own input, and adds to the parent node’s static edges', async () => {
    const Fan = Team.extend({ topic: z.string().default('') });
    const inner = new StateGraph(Fan, { reducers })
      .addNode(
        'pick',
        () => new Command({ graph: Command.PARENT, goto: [new Send('worker', { topic: 'x' })] }),
      )
      .addEdge(START, 'pick')
      .addEdge('pick', END)
      .compile();
    const parent = new StateGraph(Fan, { reducers })
      .addNode('worker', (s) => ({ log: `worker on ${s.topic}` }))
      .addNode('inner', inner, { goto: ['worker'] })
      .addNode('static', () => ({ log: 'static edge' }))
      .addEdge(START, 'inner')
      .addEdge('inner', 'static')
      .addEdge('static', END)
      .addEdge('worker', END)
      .compile();
    // Triggered nodes run before sends in a step (in node order), so the static edge writes first.
    expect((await parent.invoke({})).log).toEqual(['static edge', 'worker on x']);
  });

  it('reaches only the graph one level up from a subgraph two levels down', async () => {
    const deepest = new StateGraph(Team, { reducers })
      .addNode('leave', () => new Command({ graph: Command.PARENT, goto: 'm2', update: { log: 'leave' } }))
      .addEdge(START, 'leave')
      .addEdge('leave', END)
      .compile();
    const middle = new StateGraph(Team, { reducers })
      .addNode('m2', () => ({ log: 'm2' }))
      .addNode('m1', deepest, { goto: ['m2'] })
      .addEdge(START, 'm1')
      .addEdge('m2', END)
      .compile();
    const top = new StateGraph(Team, { reducers })
      .addNode('mid', middle)
      .addNode('done', () => ({ log: 'done' }))
      .addEdge(START, 'mid')
      .addEdge('mid', 'done')
      .addEdge('done', END)
      .compile();
    expect((await top.invoke({})).log).toEqual(['leave', 'm2', 'done']);
  });

  it('ends the task of a node that ran the subgraph with ctx.runSubgraph', async () => {
    const inner = agent('alice', 'bob');
    const parent = new StateGraph(Team, { reducers })
      .addNode('bob', () => ({ log: 'bob' }))
      .addNode(
        'call',
        async (state, ctx) => {
          await ctx.runSubgraph(inner, state, { key: 'alice' });
          return { log: 'never' };
        },
        { goto: ['bob'] },
      )
      .addEdge(START, 'call')
      .addEdge('bob', END)
      .compile();
    expect((await parent.invoke({})).log).toEqual(['alice hands off to bob', 'bob']);
  });

  it('fails with a WeftError naming the node, the subgraph and the target when goto is not a parent node', async () => {
    const team = new StateGraph(Team, { reducers })
      .addNode('bob', () => ({}))
      .addNode('alice', agent('alice', 'carol'), { goto: ['bob'] })
      .addEdge(START, 'alice')
      .addEdge('alice', 'bob')
      .addEdge('bob', END)
      .compile();
    const error = await team.invoke({}).catch((e: unknown) => e);
    expect(WeftError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'INVALID_UPDATE' });
    expect((error as Error).message).toContain('node "decide" in subgraph "alice"');
    expect((error as Error).message).toContain('goto "carol", which is not a node of the parent graph');
  });

  it('fails with a WeftError naming the node when used in the top-level graph', async () => {
    const alone = agent('alice', 'bob');
    const error = await alone.invoke({}).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'INVALID_UPDATE' });
    expect((error as Error).message).toContain('node "decide" returned a Command for Command.PARENT');
    expect((error as Error).message).toContain('top-level graph');
  });

  it('is refused inside a list of updates, naming the node', async () => {
    const inner = new StateGraph(Team, { reducers })
      .addNode(
        'both',
        // The types refuse a Command.PARENT in a list too; this is what an untyped caller meets.
        () => [{ log: 'a' }, new Command({ graph: Command.PARENT, goto: 'x' })] as never,
      )
      .addEdge(START, 'both')
      .addEdge('both', END)
      .compile();
    const parent = new StateGraph(Team, { reducers })
      .addNode('x', () => ({}))
      .addNode('inner', inner, { goto: ['x'] })
      .addEdge(START, 'inner')
      .addEdge('x', END)
      .compile();
    await expect(parent.invoke({})).rejects.toThrow(
      /node "both" returned a list whose item 1 is a Command for another graph/,
    );
  });
});
