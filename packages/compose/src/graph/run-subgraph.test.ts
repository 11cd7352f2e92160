import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryCheckpointer } from '../checkpoint/memory-checkpointer.js';
import type { RunEvent } from '../events/run-event.js';
import { isGraphPause } from '../pregel/task-context.js';
import { appendReducer } from '../state/reducers.js';
import { Command } from '../vocabulary/command.js';
import { END, START } from '../vocabulary/constants.js';
import { StateGraph } from './state-graph.js';

const Inner = z.object({ log: z.array(z.string()).default([]), answer: z.string().optional() });
const Outer = z.object({ results: z.array(z.string()).default([]) });

/** An inner graph: `first` logs, `ask` pauses for an answer (with a checkpointer) or answers at once. */
function inner(ran: string[], ask: boolean) {
  return new StateGraph(Inner, { reducers: { log: appendReducer } })
    .addNode('first', (s, ctx) => {
      ran.push(`first:${s.log.join(',')}:${String(ctx.config.tenant ?? '-')}`);
      return { log: 'first' };
    })
    .addNode('ask', (s, ctx) => ({ answer: ask ? ctx.interrupt<string>(`question ${s.log[0]}`) : 'auto' }))
    .addEdge(START, 'first')
    .addEdge('first', 'ask')
    .addEdge('ask', END)
    .compile({ name: 'inner' });
}

describe('ctx.runSubgraph', () => {
  it('runs a graph nested under the task and resolves with its final state', async () => {
    const ran: string[] = [];
    const events: RunEvent[] = [];
    const graph = inner(ran, false);
    const outer = new StateGraph(Outer, { reducers: { results: appendReducer } })
      .addNode('host', async (_s, ctx) => {
        const state = await ctx.runSubgraph(graph, { log: ['in'] }, { key: 'a', config: { tenant: 't' } });
        return { results: `${state.answer}:${state.log.join('+')}` };
      })
      .addEdge(START, 'host')
      .addEdge('host', END)
      .compile();
    const out = await outer.invoke({}, { callbacks: { onEvent: (e) => events.push(e) } });
    expect(out.results).toEqual(['auto:in+first']);
    expect(ran).toEqual(['first:in:t']);
    expect(events.filter((e) => e.type === 'node-start').map((e) => e.path.join('/'))).toEqual([
      'host',
      'host/first',
      'host/ask',
    ]);
  });

  it('pauses the task when the nested graph pauses and resumes inside it, without re-running it', async () => {
    const ran: string[] = [];
    const graph = inner(ran, true);
    let hostRuns = 0;
    const outer = new StateGraph(Outer, { reducers: { results: appendReducer } })
      .addNode('host', async (_s, ctx) => {
        hostRuns++;
        const state = await ctx.runSubgraph(graph, { log: ['in'] }, { key: 'call-1' });
        return { results: state.answer ?? '' };
      })
      .addEdge(START, 'host')
      .addEdge('host', END)
      .compile({ checkpointer: new MemoryCheckpointer() });
    const paused = await outer.run({}, { threadId: 't' });
    expect(paused.status).toBe('interrupted');
    expect(paused.interrupts.map((i) => [i.value, i.path])).toEqual([['question in', ['host', 'ask']]]);
    const done = await outer.invoke(new Command({ resume: 'yes' }), { threadId: 't' });
    expect(done.results).toEqual(['yes']);
    expect(ran).toEqual(['first:in:-']);
    expect(hostRuns).toBe(2);
  });

  it('reports every nested pause of a task when several nested runs paused in parallel', async () => {
    const ran: string[] = [];
    const graph = inner(ran, true);
    const outer = new StateGraph(Outer, { reducers: { results: appendReducer } })
      .addNode('host', async (_s, ctx) => {
        const settled = await Promise.allSettled(
          ['x', 'y'].map((key) => ctx.runSubgraph(graph, { log: [key] }, { key })),
        );
        const pauses = settled.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
        if (pauses.length > 0) {
          expect(pauses.every(isGraphPause)).toBe(true);
          throw pauses.at(-1);
        }
        return { results: settled.map((r) => (r.status === 'fulfilled' ? (r.value.answer ?? '') : '')) };
      })
      .addEdge(START, 'host')
      .addEdge('host', END)
      .compile({ checkpointer: new MemoryCheckpointer() });
    const paused = await outer.run({}, { threadId: 't' });
    expect(paused.interrupts.map((i) => i.value).sort()).toEqual(['question x', 'question y']);
    const answers = Object.fromEntries(paused.interrupts.map((i) => [i.id, `re ${String(i.value)}`]));
    const done = await outer.invoke(new Command({ resume: answers }), { threadId: 't' });
    expect(done.results).toEqual(['re question x', 're question y']);
    expect(ran.sort()).toEqual(['first:x:-', 'first:y:-']);
  });
});

describe('compile option concurrency', () => {
  it('limits the tasks of one step, also when the graph runs nested', async () => {
    let running = 0;
    let most = 0;
    const work = async () => {
      running++;
      most = Math.max(most, running);
      for (let i = 0; i < 5; i++) await Promise.resolve();
      running--;
      return { results: 'done' };
    };
    const fan = new StateGraph(Outer, { reducers: { results: appendReducer } })
      .addNode('a', work)
      .addNode('b', work)
      .addNode('c', work)
      .addEdge(START, 'a')
      .addEdge(START, 'b')
      .addEdge(START, 'c')
      .addEdge(['a', 'b', 'c'], END)
      .compile({ concurrency: 2 });
    expect((await fan.invoke({})).results).toHaveLength(3);
    expect(most).toBe(2);
    most = 0;
    const outer = new StateGraph(Outer, { reducers: { results: appendReducer } })
      .addNode('fan', fan)
      .addEdge(START, 'fan')
      .addEdge('fan', END)
      .compile();
    expect((await outer.invoke({})).results).toHaveLength(3);
    expect(most).toBe(2);
  });

  it('is checked at compile time', () => {
    const graph = new StateGraph(Outer)
      .addNode('a', () => ({}))
      .addEdge(START, 'a')
      .addEdge('a', END);
    expect(() => graph.compile({ concurrency: 0 })).toThrow(/concurrency must be a positive integer/);
  });
});
