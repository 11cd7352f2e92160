import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryCheckpointer } from '../src/checkpoint/memory-checkpointer.js';
import { appendReducer, Command, END, START, StateGraph } from '../src/index.js';

const State = z.object({ log: z.array(z.string()).default([]), note: z.string().default('') });
const options = { reducers: { log: appendReducer } };

describe('updateState while a node waits at interrupt()', () => {
  function approvalApp(checkpointer: MemoryCheckpointer, sent: string[]) {
    return new StateGraph(State, options)
      .addNode('draft', () => ({ log: 'draft' }))
      .addNode('approve', async (state, ctx) => {
        await ctx.once('notify', () => sent.push(`asked about "${state.note}"`));
        const answer = ctx.interrupt<string>({ question: `send "${state.note}"?` });
        return { log: `${answer}:${state.note}` };
      })
      .addEdge(START, 'draft')
      .addEdge('draft', 'approve')
      .addEdge('approve', END)
      .compile({ checkpointer });
  }

  it('keeps the question open: the same interrupt is pending and Command({ resume }) answers it on the edited state', async () => {
    const checkpointer = new MemoryCheckpointer();
    const sent: string[] = [];
    const app = approvalApp(checkpointer, sent);
    const config = { threadId: 'edit-1' };
    const paused = await app.run({ note: 'hello' }, config);
    const pending = paused.interrupts.map((i) => i.id);
    expect(pending).toHaveLength(1);

    await app.updateState('edit-1', { note: 'hello, world' });
    const edited = await app.getState('edit-1');
    expect(edited?.values).toMatchObject({ note: 'hello, world' });
    expect(edited?.interrupts.map((i) => i.id)).toEqual(pending);
    expect(edited?.next).toEqual(['approve']);

    const done = await app.invoke(new Command({ resume: 'yes' }), config);
    expect(done.log).toEqual(['draft', 'yes:hello, world']);
    // The side effect before the question ran once, before the edit (ctx.once survives the update).
    expect(sent).toEqual(['asked about "hello"']);
  });

  it('answers by interrupt id after the edit, and asNode still replaces the waiting task', async () => {
    const checkpointer = new MemoryCheckpointer();
    const app = approvalApp(checkpointer, []);
    const paused = await app.run({ note: 'a' }, { threadId: 'edit-2' });
    const id = paused.interrupts[0]?.id as string;
    await app.updateState('edit-2', { note: 'b' });
    const done = await app.invoke(new Command({ resume: { [id]: 'ok' } }), { threadId: 'edit-2' });
    expect(done.log).toEqual(['draft', 'ok:b']);

    await app.run({ note: 'c' }, { threadId: 'edit-3' });
    await app.updateState('edit-3', { log: 'approved by hand' }, { asNode: 'approve' });
    const replaced = await app.getState('edit-3');
    expect(replaced?.interrupts).toEqual([]);
    expect(replaced?.next).toEqual([]);
  });

  it('keeps a pause inside a nested graph: resuming after the edit continues inside it', async () => {
    const checkpointer = new MemoryCheckpointer();
    const innerRuns: string[] = [];
    const inner = new StateGraph(z.object({ ok: z.string().optional() }))
      .addNode('prep', () => {
        innerRuns.push('prep');
        return {};
      })
      .addNode('ask', (_s, ctx) => ({ ok: ctx.interrupt<string>('inner question') }))
      .addEdge(START, 'prep')
      .addEdge('prep', 'ask')
      .addEdge('ask', END)
      .compile({ name: 'inner' });
    const app = new StateGraph(State, options)
      .addNode('host', async (state, ctx) => {
        const out = await ctx.runSubgraph(inner, {}, { key: 'k' });
        return { log: `${out.ok}:${state.note}` };
      })
      .addEdge(START, 'host')
      .addEdge('host', END)
      .compile({ checkpointer });
    await app.run({ note: 'first' }, { threadId: 'edit-4' });
    await app.updateState('edit-4', { note: 'second' });
    const done = await app.invoke(new Command({ resume: 'inner answer' }), { threadId: 'edit-4' });
    expect(done.log).toEqual(['inner answer:second']);
    expect(innerRuns).toEqual(['prep']);
  });
});
