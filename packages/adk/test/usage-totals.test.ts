import type { RunEvent } from '@weft/compose';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  AgentTool,
  ChatModelAgent,
  MemorySessionService,
  priceTable,
  Runner,
  tool,
  type Usage,
} from '../src/index.js';
import { costOfSummary, defaultPrices } from '../src/prices.js';
import { ScriptedChatModel } from '../src/testing/index.js';
import { drain } from './multi-helpers.js';

const usage = (inputTokens: number, outputTokens: number, extra: Partial<Usage> = {}): Usage => ({
  inputTokens,
  outputTokens,
  totalTokens: inputTokens + outputTokens,
  ...extra,
});

/** A host (gpt-4o-mini) that asks a helper agent (claude-sonnet-4) once, then answers. */
function hostWithHelper() {
  const lookup = tool({
    name: 'lookup',
    description: 'looks a fact up',
    parameters: z.object({}),
    execute: () => 'bees dance',
  });
  const helper = new ChatModelAgent({
    name: 'helper',
    description: 'Answers research questions',
    model: new ScriptedChatModel(
      [
        { toolCalls: [{ id: 'h1', name: 'lookup', arguments: {} }], usage: usage(1_000, 100) },
        { text: 'Bees dance to talk.', usage: usage(2_000, 50, { cachedInputTokens: 1_000 }) },
      ],
      { name: 'anthropic:claude-sonnet-4-20250514' },
    ),
    tools: [lookup],
  });
  const host = new ChatModelAgent({
    name: 'host',
    model: new ScriptedChatModel(
      [
        {
          toolCalls: [{ id: 'p1', name: 'helper', arguments: { request: 'How do bees talk?' } }],
          usage: usage(400, 20),
        },
        { text: 'They dance.', usage: usage(600, 10, { reasoningTokens: 4 }) },
      ],
      { name: 'openai:gpt-4o-mini' },
    ),
    tools: [new AgentTool(helper)],
  });
  return host;
}

const expectedTotals = {
  calls: 4,
  usage: {
    inputTokens: 4_000,
    outputTokens: 180,
    totalTokens: 4_180,
    cachedInputTokens: 1_000,
    reasoningTokens: 4,
  },
  byModel: {
    'openai:gpt-4o-mini': { inputTokens: 1_000, outputTokens: 30, totalTokens: 1_030, reasoningTokens: 4 },
    'anthropic:claude-sonnet-4-20250514': {
      inputTokens: 3_000,
      outputTokens: 150,
      totalTokens: 3_150,
      cachedInputTokens: 1_000,
    },
  },
  byAgent: {
    host: {
      calls: 2,
      usage: { inputTokens: 1_000, outputTokens: 30, totalTokens: 1_030, reasoningTokens: 4 },
      byModel: {
        'openai:gpt-4o-mini': {
          inputTokens: 1_000,
          outputTokens: 30,
          totalTokens: 1_030,
          reasoningTokens: 4,
        },
      },
    },
    helper: {
      calls: 2,
      usage: { inputTokens: 3_000, outputTokens: 150, totalTokens: 3_150, cachedInputTokens: 1_000 },
      byModel: {
        'anthropic:claude-sonnet-4-20250514': {
          inputTokens: 3_000,
          outputTokens: 150,
          totalTokens: 3_150,
          cachedInputTokens: 1_000,
        },
      },
    },
  },
};

describe('usage and cost on agent events', () => {
  test('model replies name their model; the turnComplete event adds up the turn per agent and model', async () => {
    const runner = new Runner({
      agent: hostWithHelper(),
      sessionService: new MemorySessionService(),
      streaming: false,
    });
    const events = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'Tell me about bees' }));
    const replies = events.filter((e) => e.usage);
    expect(replies.map((e) => [e.author, e.model, e.usage?.totalTokens])).toEqual([
      ['host', 'openai:gpt-4o-mini', 420],
      ['helper', 'anthropic:claude-sonnet-4-20250514', 1_100],
      ['helper', 'anthropic:claude-sonnet-4-20250514', 2_050],
      ['host', 'openai:gpt-4o-mini', 610],
    ]);
    const done = events.at(-1);
    expect(done?.turnComplete).toBe(true);
    expect(done?.usageTotals).toEqual(expectedTotals);
  });

  test("the agent graph's run-end carries the same totals, which a price table turns into a cost", async () => {
    const events: RunEvent[] = [];
    await hostWithHelper()
      .compile()
      .invoke({ input: 'Tell me about bees' } as never, { callbacks: { onEvent: (e) => events.push(e) } });
    const end = events.at(-1);
    if (end?.type !== 'run-end') throw new Error(`expected run-end, got ${end?.type}`);
    expect(end.usageTotals).toEqual(expectedTotals);
    const prices = priceTable(defaultPrices, { 'openai:gpt-4o-mini': { input: 1, output: 2 } });
    const run = costOfSummary(end.usageTotals!, prices);
    // host: 1000 in × $1 + 30 out × $2 per million; helper at claude-sonnet-4's list price:
    // 2000 uncached × $3 + 1000 cached × $0.30 + 150 out × $15 per million.
    expect(run.total).toBeCloseTo((1_000 * 1 + 30 * 2 + 2_000 * 3 + 1_000 * 0.3 + 150 * 15) / 1e6, 12);
    expect(run.unpriced).toEqual([]);
    const helper = costOfSummary(
      end.usageTotals!.byAgent.helper!,
      priceTable({ other: { input: 1, output: 1 } }),
    );
    expect(helper).toMatchObject({ total: 0, unpriced: ['anthropic:claude-sonnet-4-20250514'] });
  });
});
