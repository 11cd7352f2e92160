import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StateGraph } from '../../graph/state-graph.js';
import type { NodeContext } from '../../pregel/node-context.js';
import { appendReducer } from '../../state/reducers.js';
import { Command } from '../../vocabulary/command.js';
import { END, START } from '../../vocabulary/constants.js';
import { newThread, type StoreOf } from './threads.js';

const Outer = z.object({ log: z.array(z.string()).default([]), message: z.string().default('') });
const Inner = Outer.extend({ heard: z.array(z.string()).default([]) });

/** `agent` is an inner graph that remembers what it `heard` (a key of its own); `ask` may pause it. */
function chatGraph(store: StoreOf, keepsState: boolean, ask = false) {
  const inner = new StateGraph(Inner, { reducers: { log: appendReducer, heard: appendReducer } })
    .addNode('listen', (state) => ({ heard: state.message }))
    .addNode('reply', (state, ctx: NodeContext) => {
      const ok = ask ? ctx.interrupt<string>('reply?') : 'ok';
      return { log: `${ok}: heard ${state.heard.join(', ')}` };
    })
    .addEdge(START, 'listen')
    .addEdge('listen', 'reply')
    .addEdge('reply', END)
    .compile({ name: 'agent', ...(keepsState ? { checkpointer: true as const } : {}) });
  return new StateGraph(Outer, { reducers: { log: appendReducer } })
    .addNode('agent', inner)
    .addEdge(START, 'agent')
    .addEdge('agent', END)
    .compile({ checkpointer: store() });
}

/** Issue 15 bullet 4: a subgraph compiled with `checkpointer: true` remembers across the parent's turns. */
export function describeSubgraphMemoryCases(store: StoreOf): void {
  describe('a subgraph compiled with checkpointer: true', () => {
    it('keeps its own state across the parent’s turns on a thread; by default each call starts empty', async () => {
      const threadId = newThread('sub-memory');
      const remembering = chatGraph(store, true);
      await remembering.invoke({ message: 'hi' }, { threadId });
      const second = await remembering.invoke({ message: 'again' }, { threadId });
      expect(second.log).toEqual(['ok: heard hi', 'ok: heard hi, again']);
      expect(Object.keys(second).sort()).toEqual(['log', 'message']);
      const other = newThread('sub-memory-other');
      expect((await remembering.invoke({ message: 'new' }, { threadId: other })).log).toEqual([
        'ok: heard new',
      ]);
      const stateless = chatGraph(store, false);
      const plain = newThread('sub-stateless');
      await stateless.invoke({ message: 'hi' }, { threadId: plain });
      expect((await stateless.invoke({ message: 'again' }, { threadId: plain })).log).toEqual([
        'ok: heard hi',
        'ok: heard again',
      ]);
    });

    it('pauses and resumes inside the kept state', async () => {
      const threadId = newThread('sub-memory-pause');
      const app = chatGraph(store, true, true);
      await app.invoke({ message: 'one' }, { threadId });
      await app.invoke(new Command({ resume: 'yes' }), { threadId });
      const paused = await app.run({ message: 'two' }, { threadId });
      expect(paused.status).toBe('interrupted');
      const done = await app.invoke(new Command({ resume: 'sure' }), { threadId });
      expect(done.log).toEqual(['yes: heard one', 'sure: heard one, two']);
    });
  });
}
