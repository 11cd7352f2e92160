// The functional API through its public entry (`@weft/compose/func`): tasks, retries, errors, nesting.
// The store-level cases (resume, parallel pauses, final/previous, history) run on every checkpointer in
// src/testing/semantics/functional-cases.ts.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { entrypoint, getContext, getPreviousState, interrupt, task } from '../src/func/index.js';
import {
  appendReducer,
  Command,
  END,
  Graph,
  MemoryCheckpointer,
  NodeError,
  START,
  StateGraph,
  WeftError,
} from '../src/index.js';

let threads = 0;
const newThread = () => `func-api-${++threads}`;

describe('task()', () => {
  it('called outside an entrypoint rejects with a typed error naming the task', async () => {
    const lonely = task('lonely', (n: number) => n + 1);
    const error = await lonely(1).catch((e: unknown) => e);
    expect(WeftError.isInstance(error) && error.code).toBe('OUTSIDE_ENTRYPOINT');
    expect((error as Error).message).toMatch(/task "lonely" was called outside an entrypoint/);
    expect(() => interrupt('x')).toThrow(/interrupt\(\) was called outside an entrypoint/);
    expect(() => getContext()).toThrow(/OUTSIDE_ENTRYPOINT|outside an entrypoint/);
  });

  it('rejects bad definitions at once', () => {
    expect(() => task('', () => 1)).toThrow(/non-empty/);
    expect(() =>
      task('gen', function* () {
        yield 1;
      }),
    ).toThrow(/generator functions cannot be tasks/);
    expect(() => entrypoint({ name: '' }, async () => 1)).toThrow(/options.name/);
  });

  it('runs without a checkpointer (nothing stored); an interrupt() then fails naming the node', async () => {
    const add = task('add', (a: number, b: number) => a + b);
    const sum = entrypoint({ name: 'sum' }, async (ns: number[]) => {
      let total = 0;
      for (const n of ns) total = await add(total, n);
      return total;
    });
    expect(await sum.invoke([1, 2, 3])).toBe(6);
    const asks = entrypoint({ name: 'asks' }, async () => interrupt('?'));
    await expect(asks.invoke(1 as never)).rejects.toThrow(
      /"asks" called interrupt\(\), but the run has no checkpointer/,
    );
  });

  it('retries a failing call by its policy; a call that keeps failing rejects with a NodeError naming the task', async () => {
    let tries = 0;
    const flaky = task({ name: 'flaky', retry: { maxAttempts: 3, initialDelayMs: 1, jitter: false } }, () => {
      tries += 1;
      if (tries < 3) throw new Error(`try ${tries}`);
      return 'ok';
    });
    const broken = task('broken', () => {
      throw new Error('always');
    });
    const app = entrypoint({ name: 'app', checkpointer: new MemoryCheckpointer() }, async (_: number) => {
      const first = await flaky();
      try {
        await broken();
      } catch (error) {
        return {
          first,
          caught: error instanceof NodeError ? [error.path, (error.cause as Error).message] : error,
        };
      }
      return { first };
    });
    const out = await app.invoke(0, { threadId: newThread() });
    expect(out).toEqual({ first: 'ok', caught: [['app', 'broken'], 'always'] });
    expect(tries).toBe(3);
    // Uncaught, the failure fails the run naming the task.
    const failing = entrypoint({ name: 'failing' }, async () => broken());
    const error = await failing.invoke(1 as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NodeError);
    expect((error as NodeError).path).toEqual(['failing', 'broken']);
  });

  it('tasks may call tasks; the calls keep their order-based identity across a pause', async () => {
    const log: string[] = [];
    const leaf = task('leaf', (n: number) => {
      log.push(`leaf ${n}`);
      return n * 10;
    });
    const branch = task('branch', async (n: number) => {
      const [a, b] = await Promise.all([leaf(n), leaf(n + 1)]);
      const ok = interrupt<boolean>(`keep ${a + b}?`);
      return ok ? a + b : 0;
    });
    const app = entrypoint({ name: 'tree', checkpointer: new MemoryCheckpointer() }, async (n: number) =>
      branch(n),
    );
    const threadId = newThread();
    const paused = await app.run(1, { threadId });
    expect(paused.interrupts.map((i) => i.value)).toEqual(['keep 30?']);
    expect(await app.invoke(new Command({ resume: true }), { threadId })).toBe(30);
    expect(log).toEqual(['leaf 1', 'leaf 2']);
  });

  it('getPreviousState() and getContext() reach the entrypoint from inside a task', async () => {
    const seen: unknown[] = [];
    const remember = task('remember', (note: string) => {
      const ctx = getContext();
      seen.push([ctx.node, ctx.path, ctx.threadId]);
      return [...(getPreviousState<string[]>() ?? []), note];
    });
    const notes = entrypoint(
      { name: 'notes', checkpointer: new MemoryCheckpointer() },
      async (note: string) => remember(note),
    );
    const threadId = newThread();
    await notes.invoke('a', { threadId });
    expect(await notes.invoke('b', { threadId })).toEqual(['a', 'b']);
    expect(seen[0]).toEqual(['remember', ['notes', 'remember'], threadId]);
  });

  it('a retried entrypoint does not call the tasks that finished in the failed attempt', async () => {
    let fetched = 0;
    let bodyRuns = 0;
    const fetchIt = task('fetchIt', () => ++fetched);
    const app = entrypoint(
      { name: 'retrying', retry: { maxAttempts: 2, initialDelayMs: 1, jitter: false } },
      async () => {
        const value = await fetchIt();
        bodyRuns += 1;
        if (bodyRuns === 1) throw new Error('flaky body');
        return value;
      },
    );
    expect(await app.invoke(0 as never)).toBe(1);
    expect([fetched, bodyRuns]).toEqual([1, 2]);
  });
});

describe('entrypoints and graphs', () => {
  it('an entrypoint is a node of a state graph: it gets the state, its return value is the update', async () => {
    const shout = task('shout', (text: string) => `${text.toUpperCase()}!`);
    const agent = entrypoint({ name: 'agent' }, async (state: { log: string[] }) => ({
      log: [await shout(state.log.at(-1) ?? '')],
    }));
    const graph = new StateGraph(z.object({ log: z.array(z.string()).default([]) }), {
      reducers: { log: appendReducer },
    })
      .addNode('agent', agent)
      .addEdge(START, 'agent')
      .addEdge('agent', END)
      .compile({ checkpointer: new MemoryCheckpointer() });
    const threadId = newThread();
    expect(await graph.invoke({ log: ['hi'] }, { threadId })).toEqual({ log: ['hi', 'HI!'] });
    expect(graph.toJSON().nodes.find((n) => n.id === 'agent')?.kind).toBe('subgraph');
  });

  it('an entrypoint inside a checkpointed graph pauses and resumes there; finished tasks are kept', async () => {
    let drafted = 0;
    const draft = task('draft', (topic: string) => `draft ${++drafted} on ${topic}`);
    const writer = entrypoint({ name: 'writer' }, async (input: { topic: string }) => {
      const text = await draft(input.topic);
      const verdict = interrupt<string>({ review: text });
      return { result: `${text} (${verdict})` };
    });
    const graph = new StateGraph(z.object({ topic: z.string(), result: z.string().optional() }))
      .addNode('writer', writer)
      .addEdge(START, 'writer')
      .addEdge('writer', END)
      .compile({ checkpointer: new MemoryCheckpointer() });
    const threadId = newThread();
    const paused = await graph.run({ topic: 'owls' }, { threadId });
    expect(paused.interrupts[0]?.path).toEqual(['writer', 'writer']);
    const done = await graph.invoke(new Command({ resume: 'fine' }), { threadId });
    expect(done.result).toBe('draft 1 on owls (fine)');
    expect(drafted).toBe(1);
  });

  it('an entrypoint is a node of a dataflow graph', async () => {
    const inc = task('inc', (n: number) => n + 1);
    const step = entrypoint({ name: 'step' }, async (n: number) => inc(n));
    const flow = new Graph<number, number>()
      .addNode('step', step)
      .addNode('twice', (n: number) => n * 2)
      .addEdge(START, 'step')
      .addEdge('step', 'twice')
      .addEdge('twice', END)
      .compile();
    expect(await flow.invoke(4)).toBe(10);
  });

  it('calls a graph with ctx.runSubgraph: a subgraph run whose pause resumes inside it', async () => {
    let asked = 0;
    const approver = new StateGraph(z.object({ plan: z.string(), ok: z.boolean().optional() }))
      .addNode('ask', (state, ctx) => {
        asked += 1;
        return { ok: ctx.interrupt<boolean>(`run ${state.plan}?`) };
      })
      .addEdge(START, 'ask')
      .addEdge('ask', END)
      .compile({ name: 'approver' });
    const plan = task('plan', (goal: string) => `plan for ${goal}`);
    const app = entrypoint(
      { name: 'planner', checkpointer: new MemoryCheckpointer() },
      async (goal: string, ctx) => {
        const text = await plan(goal);
        const verdict = await ctx.runSubgraph(approver, { plan: text }, { key: 'approval' });
        return verdict.ok ? text : 'rejected';
      },
    );
    const threadId = newThread();
    const events: string[] = [];
    const paused = await app.run('tea', {
      threadId,
      callbacks: { onEvent: (e) => void events.push(`${e.type}:${e.path.join('>')}`) },
    });
    expect(paused.interrupts.map((i) => [i.value, i.path])).toEqual([
      ['run plan for tea?', ['planner', 'ask']],
    ]);
    expect(events).toContain('node-start:planner>plan');
    expect(events).toContain('node-start:planner>ask');
    expect(await app.invoke(new Command({ resume: true }), { threadId })).toBe('plan for tea');
    expect(asked).toBe(2);
  });
});
