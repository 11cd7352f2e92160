import { END, MemoryStore, START, StateGraph } from '@weft/compose';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runToolCall } from './run-tool-call.js';
import { MemorySessionState } from './session-state.js';
import { tool } from './tool.js';

const remember = tool({
  name: 'remember',
  description: 'keeps a note in the long-term store',
  parameters: z.object({ note: z.string() }),
  async execute({ note }, context) {
    if (!context.store) return 'no store';
    await context.store.put(['notes'], context.toolCallId, { note });
    return 'kept';
  },
});

function graphRunningTheTool() {
  return new StateGraph(z.object({ result: z.string().default('') }))
    .addNode('tools', async (_state, ctx) => {
      const outcome = await runToolCall(
        { id: 'call-1', name: 'remember', arguments: JSON.stringify({ note: 'likes tea' }) },
        {
          tools: new Map([['remember', remember]]),
          signal: ctx.signal,
          timeoutMs: undefined,
          state: new MemorySessionState(),
          emit: () => undefined,
          nodeContext: ctx,
        },
      );
      return { result: outcome.kind === 'result' ? JSON.stringify(outcome.message.content) : outcome.kind };
    })
    .addEdge(START, 'tools')
    .addEdge('tools', END);
}

describe('ToolContext.store', () => {
  it('is the store of the graph running the tool', async () => {
    const store = new MemoryStore();
    const result = await graphRunningTheTool().compile({ store }).invoke({});
    expect(result.result).toContain('kept');
    expect((await store.get(['notes'], 'call-1'))?.value).toEqual({ note: 'likes tea' });
  });

  it('is absent when the graph has none', async () => {
    expect((await graphRunningTheTool().compile().invoke({})).result).toContain('no store');
  });
});
