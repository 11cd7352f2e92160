// Ported from langchain-ai/langgraphjs: libs/langgraph-core/src/tests/pregel.test.ts "resume multiple
// interrupts" (a map of answers by interrupt id), and the rule LangGraph applies in `mapCommand`
// (libs/langgraph-core/src/pregel/io.ts): a resume object is a map when its keys are interrupt ids. Where
// LangGraph drops an id that names no pending interrupt, Weft fails with the pending ids (issue 39,
// item 8): an id-shaped key is never taken for the answer itself.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryCheckpointer } from '../../src/checkpoint/memory-checkpointer.js';
import { Command, END, Send, START, StateGraph } from '../../src/index.js';

function childGraph() {
  return new StateGraph(
    z.object({
      prompt: z.string(),
      humanInput: z.string().optional(),
      humanInputs: z.array(z.string()).optional(),
    }),
  )
    .addNode('getHumanInput', (state, ctx) => {
      const humanInput = ctx.interrupt<string>(state.prompt);
      return { humanInput, humanInputs: [humanInput] };
    })
    .addEdge(START, 'getHumanInput')
    .addEdge('getHumanInput', END)
    .compile({ name: 'child' });
}

function oneQuestion() {
  return new StateGraph(z.object({ answer: z.unknown().optional() }))
    .addNode('ask', (_state, ctx) => ({ answer: ctx.interrupt('what?') }))
    .addEdge(START, 'ask')
    .addEdge('ask', END)
    .compile({ checkpointer: new MemoryCheckpointer() });
}

describe('resume maps', () => {
  it('answers several interrupts by id (resume multiple interrupts)', async () => {
    const graph = new StateGraph(
      z.object({ prompts: z.array(z.string()), humanInputs: z.array(z.string()).default([]) }),
      { reducers: { humanInputs: (a: string[], b: string[]) => [...a, ...b] } },
    )
      .addNode('childGraph', childGraph())
      .addNode('cleanup', (state) => {
        if (state.humanInputs.length !== state.prompts.length) throw new Error('missing answers');
        return {};
      })
      .addConditionalEdges(
        START,
        ({ prompts }) => prompts.map((prompt) => new Send('childGraph', { prompt })),
        ['childGraph'],
      )
      .addEdge('childGraph', 'cleanup')
      .addEdge('cleanup', END)
      .compile({ checkpointer: new MemoryCheckpointer() });
    const prompts = ['a', 'b', 'c', 'd', 'e'];
    const paused = await graph.run({ prompts }, { threadId: '1' });
    const state = await graph.getState('1');
    expect(paused.interrupts).toEqual(state?.tasks.flatMap((task) => task.interrupts));
    const resume = Object.fromEntries(paused.interrupts.map((i) => [i.id, `response: ${i.value}`]));
    expect(await graph.invoke(new Command({ resume }), { threadId: '1' })).toEqual({
      prompts,
      humanInputs: prompts.map((prompt) => `response: ${prompt}`),
    });
  });

  it('fails an id-shaped key that names no pending interrupt, listing the pending ids', async () => {
    const app = oneQuestion();
    const paused = await app.run({}, { threadId: 't' });
    const pendingId = paused.interrupts[0]?.id as string;
    for (const key of [
      'no-such-id',
      `${pendingId}x`,
      'b8c1f0e4-2a6d-4d1e-9c0a-5f3e2d1c0b9a',
      'ab'.repeat(16),
    ]) {
      const error = await app
        .invoke(new Command({ resume: { [key]: 'yes' } }), { threadId: 't' })
        .catch((e: unknown) => e);
      expect(error, key).toMatchObject({ code: 'INVALID_RESUME' });
      expect((error as Error).message, key).toContain(pendingId);
      expect((error as Error).message, key).toContain(key);
    }
    expect((await app.getState('t'))?.interrupts.map((i) => i.id)).toEqual([pendingId]);
    expect(await app.invoke(new Command({ resume: { [pendingId]: 'yes' } }), { threadId: 't' })).toEqual({
      answer: 'yes',
    });
  });

  it('still takes an object whose keys are plain names as the one answer', async () => {
    const app = oneQuestion();
    await app.run({}, { threadId: 'plain' });
    const answer = { approved: true, note_text: 'fine', 'Content Type': 'text' };
    expect(await app.invoke(new Command({ resume: answer }), { threadId: 'plain' })).toEqual({ answer });
  });
});
