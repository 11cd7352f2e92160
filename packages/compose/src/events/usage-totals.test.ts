import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { getContext } from '../func/context.js';
import { entrypoint } from '../func/entrypoint.js';
import { task } from '../func/task.js';
import { StateGraph } from '../graph/state-graph.js';
import type { NodeContext } from '../pregel/node-context.js';
import { END, START } from '../vocabulary/constants.js';
import type { TokenUsage } from './node-events.js';
import type { RunEvent } from './run-event.js';
import { usageTotalsOf } from './usage-tally.js';

const State = z.object({ n: z.number().default(0) });

const usage = (inputTokens: number, outputTokens: number, extra: Partial<TokenUsage> = {}): TokenUsage => ({
  inputTokens,
  outputTokens,
  totalTokens: inputTokens + outputTokens,
  ...extra,
});

function modelCall(
  ctx: NodeContext,
  call: { agent?: string; model: string; usage?: TokenUsage; error?: Error },
): Promise<void> | undefined {
  return ctx.report({
    type: 'model-call',
    ...(call.agent === undefined ? {} : { agent: call.agent }),
    model: call.model,
    request: { messages: [], tools: [], options: {} },
    streamed: false,
    startedAt: Date.now(),
    durationMs: 1,
    ...(call.usage ? { usage: call.usage } : {}),
    ...(call.error ? { error: call.error } : {}),
  });
}

/** A root node with two agents' calls, and a subgraph whose node makes one more and a failed one. */
function graphWithCalls(options: { failAfter?: boolean } = {}) {
  const inner = new StateGraph(State)
    .addNode('member', async (_state, ctx) => {
      await modelCall(ctx, {
        agent: 'researcher',
        model: 'openai:gpt-4o',
        usage: usage(50, 5, { reasoningTokens: 3 }),
      });
      await modelCall(ctx, { agent: 'researcher', model: 'openai:gpt-4o', error: new Error('rate limited') });
      if (options.failAfter) throw new Error('member broke');
      return {};
    })
    .addEdge(START, 'member')
    .addEdge('member', END)
    .compile({ name: 'team' });
  return new StateGraph(State)
    .addNode('lead', async (_state, ctx) => {
      await modelCall(ctx, {
        agent: 'supervisor',
        model: 'openai:gpt-4o-mini',
        usage: usage(100, 10, { cachedInputTokens: 40 }),
      });
      await modelCall(ctx, { model: 'openai:gpt-4o-mini', usage: usage(7, 1) });
      return {};
    })
    .addNode('team', inner)
    .addEdge(START, 'lead')
    .addEdge('lead', 'team')
    .addEdge('team', END)
    .compile({ name: 'root' });
}

describe('usage totals on the events that end a run', () => {
  it('adds up every model call of the run, nested graphs included, in total, per model and per agent', async () => {
    const events: RunEvent[] = [];
    await graphWithCalls().invoke({}, { callbacks: { onEvent: (e) => events.push(e) } });
    const end = events.at(-1);
    expect(end?.type).toBe('run-end');
    expect(end?.type === 'run-end' && end.usageTotals).toEqual({
      calls: 4,
      usage: {
        inputTokens: 157,
        outputTokens: 16,
        totalTokens: 173,
        cachedInputTokens: 40,
        reasoningTokens: 3,
      },
      byModel: {
        'openai:gpt-4o-mini': { inputTokens: 107, outputTokens: 11, totalTokens: 118, cachedInputTokens: 40 },
        'openai:gpt-4o': { inputTokens: 50, outputTokens: 5, totalTokens: 55, reasoningTokens: 3 },
      },
      byAgent: {
        supervisor: {
          calls: 1,
          usage: { inputTokens: 100, outputTokens: 10, totalTokens: 110, cachedInputTokens: 40 },
          byModel: {
            'openai:gpt-4o-mini': {
              inputTokens: 100,
              outputTokens: 10,
              totalTokens: 110,
              cachedInputTokens: 40,
            },
          },
        },
        researcher: {
          calls: 2,
          usage: { inputTokens: 50, outputTokens: 5, totalTokens: 55, reasoningTokens: 3 },
          byModel: {
            'openai:gpt-4o': { inputTokens: 50, outputTokens: 5, totalTokens: 55, reasoningTokens: 3 },
          },
        },
      },
    });
  });

  it('puts the calls made before a failure on run-error', async () => {
    const events: RunEvent[] = [];
    await expect(
      graphWithCalls({ failAfter: true }).invoke({}, { callbacks: { onEvent: (e) => events.push(e) } }),
    ).rejects.toThrow('member broke');
    const end = events.at(-1);
    expect(end?.type).toBe('run-error');
    expect(end?.type === 'run-error' && end.usageTotals?.calls).toBe(4);
    expect(end?.type === 'run-error' && end.usageTotals?.usage.totalTokens).toBe(173);
  });

  it('counts the calls a functional-API task and its entrypoint report, and only model calls', async () => {
    const ask = task('ask', async (question: string) => {
      await modelCall(getContext(), { agent: 'helper', model: 'openai:gpt-4o-mini', usage: usage(20, 4) });
      return question.toUpperCase();
    });
    const app = entrypoint({ name: 'flow', tasks: [ask] }, async (question: string, ctx) => {
      await ctx.report({ type: 'tool-start', tool: 'search', toolCallId: 'c1', arguments: '{}' });
      await modelCall(ctx, { model: 'openai:gpt-4o', usage: usage(3, 2) });
      return ask(question);
    });
    const events: RunEvent[] = [];
    await app.invoke('hi', { callbacks: { onEvent: (e) => events.push(e) } });
    expect(events.filter((e) => e.type === 'model-call')).toHaveLength(2);
    const end = events.at(-1);
    expect(end?.type === 'run-end' && end.usageTotals).toMatchObject({
      calls: 2,
      usage: { inputTokens: 23, outputTokens: 6, totalTokens: 29 },
      byAgent: { helper: { calls: 1 } },
    });
  });

  it('leaves usageTotals out of a run without model calls, and reaches events-mode streams', async () => {
    const plain = new StateGraph(State)
      .addNode('a', () => ({ n: 1 }))
      .addEdge(START, 'a')
      .addEdge('a', END)
      .compile();
    const events: RunEvent[] = [];
    await plain.invoke({}, { callbacks: { onEvent: (e) => events.push(e) } });
    expect(events.at(-1)).not.toHaveProperty('usageTotals');
    const streamed: RunEvent[] = [];
    for await (const event of graphWithCalls().stream({}, { mode: 'events' }))
      streamed.push(event as RunEvent);
    const end = streamed.at(-1);
    expect(end?.type === 'run-end' && end.usageTotals?.usage.totalTokens).toBe(173);
  });
});

describe('usageTotalsOf', () => {
  it('is undefined without calls and keeps an optional count only where a call reported it', () => {
    expect(usageTotalsOf([])).toBeUndefined();
    expect(
      usageTotalsOf([
        { model: 'm', agent: 'a', usage: usage(1, 2) },
        { model: 'm', agent: 'a', usage: usage(3, 4, { cacheWriteTokens: 5 }) },
        { model: 'n', agent: 'b' },
      ]),
    ).toEqual({
      calls: 3,
      usage: { inputTokens: 4, outputTokens: 6, totalTokens: 10, cacheWriteTokens: 5 },
      byModel: { m: { inputTokens: 4, outputTokens: 6, totalTokens: 10, cacheWriteTokens: 5 } },
      byAgent: {
        a: {
          calls: 2,
          usage: { inputTokens: 4, outputTokens: 6, totalTokens: 10, cacheWriteTokens: 5 },
          byModel: { m: { inputTokens: 4, outputTokens: 6, totalTokens: 10, cacheWriteTokens: 5 } },
        },
        b: { calls: 1, usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 }, byModel: {} },
      },
    });
  });
});
