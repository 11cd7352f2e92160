import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryCheckpointer } from '../checkpoint/memory-checkpointer.js';
import { Command } from '../vocabulary/command.js';
import { END, START } from '../vocabulary/constants.js';
import { StateGraph } from './state-graph.js';

const build = (mode: 'pregel' | 'dag', checkpointer?: MemoryCheckpointer) =>
  new StateGraph(z.object({ n: z.number() }))
    .addNode('a', (s) => ({ n: s.n + 1 }))
    .addNode('b', (s, ctx) => (s.n > 5 ? { n: ctx.interrupt<number>('how many?') } : { n: s.n * 10 }))
    .addEdge(START, 'a')
    .addEdge('a', 'b')
    .addEdge('b', END)
    .compile({ mode, ...(checkpointer ? { checkpointer } : {}) });

const DOCUMENTED = ['checkpointId', 'interrupts', 'output', 'status', 'steps'];

describe('run() result', () => {
  for (const mode of ['pregel', 'dag'] as const) {
    it(`holds exactly the documented fields, nothing internal (${mode}, no checkpointer)`, async () => {
      const result = await build(mode).run({ n: 0 });
      expect(Object.keys(result).sort()).toEqual(DOCUMENTED);
      expect(result).toEqual({
        status: 'done',
        output: { n: 10 },
        interrupts: [],
        steps: 2,
        checkpointId: undefined,
      });
    });

    it(`holds exactly the documented fields, nothing internal (${mode}, checkpointed, paused and resumed)`, async () => {
      const saver = new MemoryCheckpointer();
      const graph = build(mode, saver);
      const paused = await graph.run({ n: 5 }, { threadId: 't' });
      expect(Object.keys(paused).sort()).toEqual(DOCUMENTED);
      expect(paused.status).toBe('interrupted');
      expect(paused.interrupts.map((i) => i.value)).toEqual(['how many?']);
      const head = await saver.list('t', { limit: 1 });
      expect(paused.checkpointId).toBe(head[0]?.id);
      const resumed = await graph.run(new Command({ resume: 3 }), { threadId: 't' });
      expect(Object.keys(resumed).sort()).toEqual(DOCUMENTED);
      expect(resumed.output).toEqual({ n: 3 });
      expect(resumed.status).toBe('done');
    });
  }
});
