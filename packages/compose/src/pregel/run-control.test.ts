import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StateGraph } from '../graph/state-graph.js';
import { END, START } from '../vocabulary/constants.js';
import { RunControl } from './run-control.js';

describe('RunControl.follow', () => {
  it('follows another control: aborts with its reason, once', () => {
    const parent = new RunControl();
    const child = new RunControl();
    child.follow(parent);
    expect(child.aborted).toBe(false);
    parent.abort('stop');
    expect(child.aborted).toBe(true);
    expect(child.reason).toBe('stop');
    parent.abort('again');
    expect(child.reason).toBe('stop');
  });

  it('aborts at once when the followed control already aborted', () => {
    const parent = new RunControl();
    parent.abort('early');
    const child = new RunControl();
    child.follow(parent);
    expect(child.reason).toBe('early');
  });

  it('stops following once unsubscribed', () => {
    const parent = new RunControl();
    const child = new RunControl();
    const unfollow = child.follow(parent);
    unfollow();
    parent.abort('late');
    expect(child.aborted).toBe(false);
    expect(child.signal.aborted).toBe(false);
  });

  it('still follows an AbortSignal', () => {
    const controller = new AbortController();
    const child = new RunControl();
    child.follow(controller.signal);
    controller.abort('signal');
    expect(child.reason).toBe('signal');
  });
});

const Shared = z.object({ log: z.array(z.string()).default([]) });

/** A subgraph whose one node waits for its run's signal and records that it fired. */
function waitingSubgraph(seen: string[]) {
  return new StateGraph(Shared)
    .addNode('wait', async (_s, ctx) => {
      await new Promise<void>((resolve) => {
        if (ctx.signal.aborted) resolve();
        ctx.signal.addEventListener('abort', () => resolve(), { once: true });
      });
      seen.push('nested saw abort');
      return {};
    })
    .addEdge(START, 'wait')
    .addEdge('wait', END)
    .compile();
}

describe('a nested run is aborted with its parent run', () => {
  /** Runs the waiting subgraph (as a node, or through `ctx.runSubgraph`) beside a node that fails. */
  const besideFailure = async (how: 'as a node' | 'runSubgraph'): Promise<string[]> => {
    const seen: string[] = [];
    const inner = waitingSubgraph(seen);
    const parent = new StateGraph(Shared)
      .addNode(
        'nested',
        how === 'as a node'
          ? inner
          : async (_s, ctx) => {
              await ctx.runSubgraph(inner, {}, { key: 'k' });
              return {};
            },
      )
      .addNode('broken', async () => {
        await Promise.resolve();
        throw new Error('sibling failed');
      })
      .addEdge(START, 'nested')
      .addEdge(START, 'broken')
      .addEdge('nested', END)
      .addEdge('broken', END)
      .compile();
    await expect(parent.invoke({})).rejects.toThrow(/sibling failed/);
    return seen;
  };

  it('when a sibling task of the subgraph node fails (subgraph as a node)', async () => {
    expect(await besideFailure('as a node')).toEqual(['nested saw abort']);
  });

  it('when a sibling task fails (ctx.runSubgraph)', async () => {
    expect(await besideFailure('runSubgraph')).toEqual(['nested saw abort']);
  });

  it("when the subgraph node's own timeout fires", async () => {
    const seen: string[] = [];
    const parent = new StateGraph(Shared)
      .addNode('sub', waitingSubgraph(seen), { timeoutMs: 1 })
      .addEdge(START, 'sub')
      .addEdge('sub', END)
      .compile();
    await expect(parent.invoke({})).rejects.toMatchObject({ node: 'sub' });
    expect(seen).toEqual(['nested saw abort']);
  });
});
