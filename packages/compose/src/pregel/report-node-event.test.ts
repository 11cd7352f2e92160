import { describe, expect, it } from 'vitest';
import type { NodeEvent } from '../events/node-events.js';
import type { RunEvent } from '../events/run-event.js';
import { UsageTally } from '../events/usage-tally.js';
import { reportNodeEvent } from './report-node-event.js';
import type { RunContext } from './run-context.js';

const where = { runId: 'r', ts: 0, path: ['a'], step: 0, node: 'a', taskId: '0:a:0' } as const;
const modelCall: NodeEvent = {
  ...where,
  type: 'model-call',
  agent: 'helper',
  model: 'm',
  request: { messages: [], tools: [], options: {} },
  streamed: false,
  startedAt: 0,
  durationMs: 1,
  usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 },
};
const toolStart: NodeEvent = { ...where, type: 'tool-start', tool: 't', toolCallId: 'c', arguments: '{}' };

describe('reportNodeEvent', () => {
  it('counts a model call toward the run usage, hands every event to the listener and returns its pace', () => {
    const seen: RunEvent[] = [];
    const usage = new UsageTally();
    const paced = Promise.resolve();
    const run = { usage, observer: { event: (e: RunEvent) => void seen.push(e), pace: () => paced } };
    expect(reportNodeEvent(run as unknown as RunContext, toolStart)).toBe(paced);
    expect(reportNodeEvent(run as unknown as RunContext, modelCall)).toBe(paced);
    expect(seen).toEqual([toolStart, modelCall]);
    expect(usage.totals()).toMatchObject({
      calls: 1,
      usage: { totalTokens: 5 },
      byAgent: { helper: { calls: 1 } },
    });
  });

  it('needs neither a tally nor a pace', () => {
    const seen: string[] = [];
    const run = { observer: { event: (e: RunEvent) => void seen.push(e.type) } };
    expect(reportNodeEvent(run as unknown as RunContext, modelCall)).toBeUndefined();
    expect(seen).toEqual(['model-call']);
  });
});
