import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryCheckpointer } from '../checkpoint/memory-checkpointer.js';
import { SerializationError } from '../checkpoint/serialization-error.js';
import { StateGraph } from '../graph/state-graph.js';
import { appendReducer } from '../state/reducers.js';
import { Command } from '../vocabulary/command.js';
import { END, START } from '../vocabulary/constants.js';
import { isGraphPause } from './task-context.js';
import { TaskMemo } from './task-memo.js';

const State = z.object({ log: z.array(z.string()).default([]) });

describe('TaskMemo', () => {
  it('calls fn once per key, shares a running call, and forgets rejections', async () => {
    const memo = new TaskMemo(new Map([['restored', 'r']]));
    let calls = 0;
    const slow = () => new Promise<number>((resolve) => setTimeout(() => resolve(++calls), 5));
    const [a, b] = await Promise.all([memo.once('k', slow), memo.once('k', slow)]);
    expect([a, b, calls]).toEqual([1, 1, 1]);
    expect(await memo.once('restored', () => 'fresh')).toBe('r');
    await expect(
      memo.once('bad', () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await memo.once('bad', () => 'second try')).toBe('second try');
    expect(memo.entries()).toEqual([
      ['restored', 'r'],
      ['k', 1],
      ['bad', 'second try'],
    ]);
  });
});

describe('ctx.once', () => {
  /** A node that sends an email (a side effect) and then asks for approval. */
  function approvalGraph(checkpointer: MemoryCheckpointer, sent: string[]) {
    return new StateGraph(State, { reducers: { log: appendReducer } })
      .addNode('notify', async (_s, ctx) => {
        const receipt = await ctx.once('email', () => {
          sent.push(`email ${sent.length + 1}`);
          return { id: `receipt-${sent.length}` };
        });
        const approved = ctx.interrupt<boolean>({ question: 'ship?' });
        const second = ctx.interrupt<string>({ question: 'note?' });
        return { log: `${receipt.id}:${approved}:${second}` };
      })
      .addEdge(START, 'notify')
      .addEdge('notify', END)
      .compile({ checkpointer });
  }

  it('does not run the side effect again when the paused node resumes, across two pauses and a new graph', async () => {
    const checkpointer = new MemoryCheckpointer();
    const sent: string[] = [];
    const config = { threadId: 'once-1' };
    const first = await approvalGraph(checkpointer, sent).run({}, config);
    expect(first.status).toBe('interrupted');
    // A second pause in the same node keeps what the first one remembered.
    const second = await approvalGraph(checkpointer, sent).run(new Command({ resume: true }), config);
    expect(second.status).toBe('interrupted');
    // A fresh compile on the same store: the result comes from the checkpoint, not from memory.
    const done = await approvalGraph(checkpointer, sent).invoke(new Command({ resume: 'fine' }), config);
    expect(done.log).toEqual(['receipt-1:true:fine']);
    expect(sent).toEqual(['email 1']);
  });

  it('keeps a finished sibling call when another part of the node paused in a nested graph', async () => {
    const checkpointer = new MemoryCheckpointer();
    const ran: string[] = [];
    const approver = new StateGraph(z.object({ ok: z.boolean().optional() }))
      .addNode('ask', (_s, ctx) => ({ ok: ctx.interrupt<boolean>('approve?') }))
      .addEdge(START, 'ask')
      .addEdge('ask', END)
      .compile({ name: 'approver' });
    const host = new StateGraph(State, { reducers: { log: appendReducer } })
      .addNode('tools', async (_s, ctx) => {
        const results = await Promise.allSettled([
          ctx.once('call-1', async () => {
            ran.push('plain tool');
            return 'weather: sunny';
          }),
          ctx.once('call-2', async () => {
            const out = await ctx.runSubgraph(approver, {}, { key: 'call-2' });
            return `approved: ${out.ok}`;
          }),
        ]);
        const pause = results.find((r) => r.status === 'rejected' && isGraphPause(r.reason));
        if (pause) throw (pause as PromiseRejectedResult).reason;
        return { log: results.map((r) => (r as PromiseFulfilledResult<string>).value) };
      })
      .addEdge(START, 'tools')
      .addEdge('tools', END)
      .compile({ checkpointer });
    const paused = await host.run({}, { threadId: 'once-2' });
    expect(paused.status).toBe('interrupted');
    const done = await host.invoke(new Command({ resume: true }), { threadId: 'once-2' });
    expect(done.log).toEqual(['weather: sunny', 'approved: true']);
    expect(ran).toEqual(['plain tool']);
  });

  it('starts afresh in a later task of the same node', async () => {
    const checkpointer = new MemoryCheckpointer();
    let calls = 0;
    const loop = new StateGraph(State, { reducers: { log: appendReducer } })
      .addNode('tick', async (_s, ctx) => ({ log: `call ${await ctx.once('work', () => ++calls)}` }))
      .addEdge(START, 'tick')
      .addConditionalEdges('tick', (s) => (s.log.length < 3 ? 'tick' : END))
      .compile({ checkpointer });
    const out = await loop.invoke({}, { threadId: 'once-3' });
    expect(out.log).toEqual(['call 1', 'call 2', 'call 3']);
  });

  it('names the node and the key when a remembered result cannot be checkpointed', async () => {
    const checkpointer = new MemoryCheckpointer();
    const graph = new StateGraph(State)
      .addNode('risky', async (_s, ctx) => {
        await ctx.once('handle', () => ({ close: () => undefined }));
        ctx.interrupt('continue?');
        return {};
      })
      .addEdge(START, 'risky')
      .addEdge('risky', END)
      .compile({ checkpointer });
    const error = await graph.run({}, { threadId: 'once-4' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SerializationError);
    expect((error as Error).message).toMatch(
      /node "risky" paused, and the result of its ctx\.once\("handle"\)/,
    );
  });
});
