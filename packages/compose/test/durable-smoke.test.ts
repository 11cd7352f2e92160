import { expect, test } from 'vitest';
import { z } from 'zod';
import { MemoryCheckpointer } from '../src/checkpoint/memory-checkpointer.js';
import { appendReducer, Command, END, START, StateGraph } from '../src/index.js';

test('interrupt and resume', async () => {
  const calls: string[] = [];
  const saver = new MemoryCheckpointer();
  const app = new StateGraph(
    z.object({ log: z.array(z.string()).default([]), approved: z.boolean().optional() }),
    { reducers: { log: appendReducer } },
  )
    .addNode('prepare', () => {
      calls.push('prepare');
      return { log: 'prepared' };
    })
    .addNode('ask', (_s, ctx) => {
      calls.push('ask');
      const ok = ctx.interrupt<boolean>({ question: 'ok?' });
      return { approved: ok, log: 'asked' };
    })
    .addNode('side', () => {
      calls.push('side');
      return { log: 'side' };
    })
    .addEdge(START, 'prepare')
    .addEdge('prepare', 'ask')
    .addEdge('prepare', 'side')
    .addEdge('ask', END)
    .addEdge('side', END)
    .compile({ checkpointer: saver });
  const first = await app.run({}, { threadId: 't1' });
  expect(first.status).toBe('interrupted');
  expect(first.interrupts[0]?.value).toEqual({ question: 'ok?' });
  const state = await app.getState('t1');
  expect(state?.next).toEqual(['ask']);
  const done = await app.invoke(new Command({ resume: true }), { threadId: 't1' });
  expect(done).toEqual({ log: ['prepared', 'asked', 'side'], approved: true });
  expect(calls).toEqual(['prepare', 'ask', 'side', 'ask']);
  const history = await app.getStateHistory('t1');
  expect(history.length).toBeGreaterThanOrEqual(3);
  // fork from the checkpoint after prepare
  const afterPrepare = history.find((h) => h.next.includes('ask'))!;
  const forkId = await app.updateState('t1', { log: 'edited' }, { checkpointId: afterPrepare.checkpointId });
  const forked = await app.run(null, { threadId: 't1', checkpointId: forkId });
  expect(forked.status).toBe('interrupted');
  const end = await app.invoke(new Command({ resume: false }), { threadId: 't1' });
  expect(end.log).toEqual(['prepared', 'edited', 'asked', 'side']);
  expect(end.approved).toBe(false);
});

test('nested subgraph pause resumes inside', async () => {
  const runs: string[] = [];
  const inner = new StateGraph(z.object({ log: z.array(z.string()).default([]) }), {
    reducers: { log: appendReducer },
  })
    .addNode('i1', () => {
      runs.push('i1');
      return { log: 'i1' };
    })
    .addNode('i2', (_s, ctx) => {
      runs.push('i2');
      const v = ctx.interrupt<string>('need');
      return { log: `i2:${v}` };
    })
    .addEdge(START, 'i1')
    .addEdge('i1', 'i2')
    .addEdge('i2', END)
    .compile({ name: 'inner' });
  const outer = new StateGraph(z.object({ log: z.array(z.string()).default([]) }), {
    reducers: { log: appendReducer },
  })
    .addNode('o1', () => ({ log: 'o1' }))
    .addNode('sub', inner)
    .addEdge(START, 'o1')
    .addEdge('o1', 'sub')
    .addEdge('sub', END)
    .compile({ checkpointer: new MemoryCheckpointer() });
  const r = await outer.run({}, { threadId: 'n' });
  expect(r.status).toBe('interrupted');
  expect(r.interrupts[0]?.path).toEqual(['sub', 'i2']);
  const done = await outer.invoke(new Command({ resume: 'x' }), { threadId: 'n' });
  expect(done.log).toEqual(['o1', 'i1', 'i2:x']);
  expect(runs).toEqual(['i1', 'i2', 'i2']);
});
