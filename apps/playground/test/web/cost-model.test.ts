// Issue #19 (4): the cost of model calls per call, per agent and per run, from their usage and the
// price table the server sends (adk's defaults plus the app's prices).
import { costOf, defaultPrices, type PriceTable } from '@weft/adk/prices';
import { describe, expect, it } from 'vitest';
import type { WireEvent } from '../../src/shared/wire.ts';
import { traceOf } from '../../web/src/trace/trace-model.ts';
import { callCost, costLabel, costOfCalls, formatCost } from '../../web/src/usage/cost-model.ts';
import { usageRows } from '../../web/src/usage/usage-rows.ts';

const prices: PriceTable = { ...defaultPrices, scripted: { input: 3, output: 15 } };
let seq = 0;
const call = (agent: string, model: string, input: number, output: number, ts = 1_000): WireEvent => ({
  seq: seq++,
  type: 'model-call',
  runId: 'r',
  ts,
  path: ['model'],
  step: 1,
  node: 'model',
  taskId: '1:model:0',
  streamed: false,
  agent,
  model,
  durationMs: 10,
  startedAt: ts - 10,
  request: { messages: [], tools: [], options: {} },
  usage: { inputTokens: input, outputTokens: output, totalTokens: input + output },
  response: { role: 'assistant', content: 'ok' },
});

describe('costs of model calls', () => {
  it('prices one call with the table (dated and provider-prefixed names included)', () => {
    const event = call('supervisor', 'openai:gpt-4o-mini-2024-07-18', 1_000_000, 1_000_000);
    expect(callCost(event, prices)?.total).toBeCloseTo(0.15 + 0.6, 10);
    expect(callCost(call('a', 'unknown-model', 10, 10), prices)).toBeUndefined();
  });

  it('sums a run call by call, and names the models without a price', () => {
    const events = [
      call('supervisor', 'scripted-supervisor', 1_000, 100),
      call('researcher', 'scripted-researcher', 2_000, 200),
      call('researcher', 'my-finetune', 500, 50),
    ];
    const summary = costOfCalls(events, prices);
    const expected =
      (costOf({ inputTokens: 1_000, outputTokens: 100, totalTokens: 1_100 }, 'scripted', prices)?.total ??
        0) +
      (costOf({ inputTokens: 2_000, outputTokens: 200, totalTokens: 2_200 }, 'scripted', prices)?.total ?? 0);
    expect(summary?.total).toBeCloseTo(expected, 12);
    expect(summary).toMatchObject({ priced: 2, unpriced: ['my-finetune'] });
    expect(costLabel(summary!)).toBe(`${formatCost(expected)} + no price for my-finetune`);
    expect(costOfCalls([], prices)).toBeUndefined();
    const rows = usageRows(events);
    expect(rows.map((r) => [r.agent, r.calls.length, r.tokens])).toEqual([
      ['supervisor', 1, 1_100],
      ['researcher', 2, 2_750],
    ]);
  });

  it('formats dollars with two significant digits under a dollar', () => {
    expect([0, 0.000421, 0.0042, 0.12345, 3.456].map(formatCost)).toEqual([
      '$0',
      '$0.00042',
      '$0.0042',
      '$0.12',
      '$3.46',
    ]);
  });

  it("puts each model call's cost on its bar in the trace", () => {
    const start: WireEvent = {
      seq: seq++,
      type: 'run-start',
      runId: 'r',
      ts: 900,
      path: [],
      graph: 'g',
      input: {},
    };
    const { spans } = traceOf([start, call('assistant', 'scripted-demo', 1_000, 100)], undefined, prices);
    expect(spans.find((s) => s.kind === 'model')?.label).toBe('model call · model · 1100 tokens · $0.0045');
  });
});
