// Ported from langchain-ai/langgraphjs: libs/langgraph-core/src/tests/pregel.test.ts "should be able to
// invoke a single node on a graph" (`graph.nodes.one.invoke(...)`): a compiled graph's node runs on its
// own, to test it in isolation. Issue 39, item 7. The node names are typed: see graph-nodes.test-d.ts.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  appendReducer,
  Command,
  END,
  Graph,
  MemoryStore,
  type RunEvent,
  runnable,
  START,
  StateGraph,
} from '../../src/index.js';

const Messages = z.object({
  messages: z.array(z.object({ role: z.string(), content: z.string() })).default([]),
});

describe('compiled.nodes', () => {
  it('runs one node of a state graph and resolves with its update, never its successors', async () => {
    const graph = new StateGraph(Messages)
      .addNode('one', (state) => {
        if (state.messages.length === 0) throw new Error('State not found');
        return { messages: [...state.messages, { role: 'user', content: 'success' }] };
      })
      .addNode('two', () => {
        throw new Error('Should not be called');
      })
      .addEdge(START, 'one')
      .addEdge('one', 'two')
      .addEdge('two', END)
      .compile();
    const result = (await graph.nodes.one.invoke({ messages: [{ role: 'user', content: 'start' }] })) as {
      messages: unknown[];
    };
    expect(result.messages).toHaveLength(2);
    expect(graph.nodes.one.name).toBe('one');
    expect(Object.keys(graph.nodes)).toEqual(['one', 'two']);
    await expect(graph.nodes.two.invoke({ messages: [] })).rejects.toMatchObject({
      code: 'NODE_FAILED',
      node: 'two',
    });
  });

  it('keeps the node’s compiled options: retry, input schema, the graph’s store, call options and events', async () => {
    let attempts = 0;
    const store = new MemoryStore();
    await store.put(['cfg'], 'greeting', { text: 'hi' });
    const graph = new StateGraph(z.object({ name: z.string(), reply: z.string().optional() }), {})
      .addNode(
        'greet',
        async (state, ctx) => {
          attempts += 1;
          if (attempts === 1) throw Object.assign(new Error('flaky'), { status: 503 });
          const greeting = (await ctx.store?.get(['cfg'], 'greeting'))?.value as { text: string };
          return {
            reply: `${greeting.text} ${state.name}${(ctx.options as { mark?: string } | undefined)?.mark ?? ''}`,
          };
        },
        { retry: { maxAttempts: 2, initialDelayMs: 0 } },
      )
      .addEdge(START, 'greet')
      .addEdge('greet', END)
      .compile({ store });
    const events: RunEvent[] = [];
    const reply = await graph.nodes.greet.invoke(
      { name: 'Ada' },
      { nodeOptions: { greet: { mark: '!' } }, callbacks: { onEvent: (event) => events.push(event) } },
    );
    expect(reply).toEqual({ reply: 'hi Ada!' });
    expect(attempts).toBe(2);
    expect(events.map((event) => event.type)).toEqual(
      expect.arrayContaining(['run-start', 'node-start', 'node-retry', 'node-end', 'run-end']),
    );
  });

  it('gives back a Command or a list of updates as the node returned them (as plain objects)', async () => {
    const graph = new StateGraph(
      z.object({ log: z.array(z.string()).default([]), done: z.boolean().optional() }),
      {
        reducers: { log: appendReducer },
      },
    )
      .addNode('list', () => [{ log: 'a' }, { log: 'b', done: true }])
      .addNode('route', () => new Command({ update: { log: 'r' }, goto: 'list' }), { goto: ['list'] })
      .addEdge(START, 'route')
      .addEdge('list', END)
      .compile();
    expect(await graph.nodes.list.invoke({ log: [] })).toEqual({ log: 'b', done: true });
    const command = await graph.nodes.route.invoke({ log: [] });
    expect(command).toBeInstanceOf(Command);
    expect(command).toMatchObject({ update: { log: 'r' }, goto: ['list'] });
  });

  it('runs a dataflow node, a streaming one and a subgraph node on their input', async () => {
    const inner = new StateGraph(z.object({ text: z.string() }))
      .addNode('shout', (s) => ({ text: s.text.toUpperCase() }))
      .addEdge(START, 'shout')
      .addEdge('shout', END)
      .compile({ name: 'inner' });
    const app = new Graph<string, string>()
      .addNode('words', async function* (text: string) {
        yield* text.split(' ').map((word) => `${word}.`);
      })
      .addNode('length', (text: string) => String(text.length))
      .addNode('upper', runnable({ invoke: (text: string) => text.toUpperCase() }))
      .addEdge(START, 'words')
      .addEdge('words', 'length')
      .addEdge('length', END)
      .addEdge(START, 'upper')
      .addEdge('upper', END)
      .compile();
    expect(await app.nodes.words.invoke('a b')).toBe('a.b.');
    expect(await app.nodes.length.invoke('abcd')).toBe('4');
    expect(await app.nodes.upper.invoke('abc')).toBe('ABC');
    const parent = new StateGraph(z.object({ text: z.string() }))
      .addNode('inner', inner)
      .addEdge(START, 'inner')
      .addEdge('inner', END)
      .compile();
    expect(await parent.nodes.inner.invoke({ text: 'hey' })).toEqual({ text: 'HEY' });
  });

  it('fails a node that pauses (no thread to pause on), naming it, and follows the signal', async () => {
    const graph = new StateGraph(z.object({ q: z.string(), a: z.string().optional() }))
      .addNode('ask', (s, ctx) => ({ a: ctx.interrupt<string>(s.q) }))
      .addNode(
        'wait',
        (_s, ctx) =>
          new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason))),
      )
      .addEdge(START, 'ask')
      .addEdge('ask', 'wait')
      .addEdge('wait', END)
      .compile();
    await expect(graph.nodes.ask.invoke({ q: 'why?' })).rejects.toMatchObject({ code: 'INTERRUPTED' });
    const controller = new AbortController();
    const waiting = graph.nodes.wait.invoke({ q: 'x' }, { signal: controller.signal });
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'ABORTED' });
  });
});
