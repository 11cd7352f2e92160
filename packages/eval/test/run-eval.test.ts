import { ChatModelAgent, messageText, tool } from '@weft/adk';
import { ScriptedChatModel } from '@weft/adk/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  agentTarget,
  type EvalTarget,
  formatJUnit,
  formatReportTable,
  loadEvalSet,
  parseEvalSet,
  runEval,
} from '../src/index.js';
import { brokenCalculator, calculator } from './fixtures/calculator.js';

const setPath = new URL('./fixtures/calculator.yaml', import.meta.url).pathname;

describe('runEval against agents through the Runner', () => {
  it('passes every case of a working agent', async () => {
    const report = await runEval({ set: await loadEvalSet(setPath), target: agentTarget(calculator) });
    expect(report.totals).toMatchObject({ cases: 3, passed: 3, runPassRate: 1 });
    const twoTurns = report.cases.find((c) => c.caseId === 'two-turns')?.runs[0];
    expect(twoTurns?.turns.map((t) => t.capture.toolCalls.map((c) => c.name))).toEqual([
      ['add'],
      ['multiply'],
    ]);
    expect(twoTurns?.scores.map((s) => s.scorer)).toEqual(['trajectory', 'rouge']);
    expect(twoTurns?.usage.modelCalls).toBe(4);
    expect(twoTurns?.usage.totalTokens).toBeGreaterThan(0);
  });

  it('fails a broken agent and says why', async () => {
    const report = await runEval({ set: await loadEvalSet(setPath), target: agentTarget(brokenCalculator) });
    expect(report.totals.passed).toBe(1);
    const adds = report.cases.find((c) => c.caseId === 'adds')?.runs[0];
    expect(adds?.pass).toBe(false);
    expect(adds?.scores.find((s) => s.scorer === 'trajectory')?.reason).toContain(
      'expected add, got multiply',
    );
    const table = formatReportTable(report);
    expect(table).toMatch(/adds\s+FAIL\s+0\/1/);
    expect(table).toContain('1/3 cases passed');
    const xml = formatJUnit(report);
    expect(xml).toContain('tests="3" failures="2"');
    expect(xml).toMatch(
      /<testcase classname="calculator" name="adds" time="[\d.]+">\s*<failure message="trajectory 0.00 &lt; 1/,
    );
  });

  it('repeats each case and reports pass@k and pass^k for a flaky agent', async () => {
    let calls = 0;
    const flaky = new ChatModelAgent({
      name: 'flaky',
      model: new ScriptedChatModel(() => {
        calls += 1;
        return calls % 2 === 1 ? 'yes' : 'no';
      }),
    });
    const set = parseEvalSet({
      name: 'flaky',
      cases: [{ id: 'says-yes', turns: [{ user: 'ok?', expect: { response: { exact: 'yes' } } }] }],
    });
    const report = await runEval({ set, target: agentTarget(flaky), repeats: 4, concurrency: 1 });
    expect(report.cases[0]).toMatchObject({ passes: 2, passAtK: true, passAllK: false });
    expect(report.totals).toMatchObject({ passed: 1, passedAll: 0, runPassRate: 0.5 });
    expect(formatJUnit(report)).toContain('name="says-yes #2"');
  });

  it('never runs more case runs at once than the concurrency limit, and gives each its own session', async () => {
    let running = 0;
    let peak = 0;
    const sessions: string[] = [];
    const gate: Array<() => void> = [];
    const target: EvalTarget = {
      name: 'counting',
      async runTurn({ sessionId }) {
        sessions.push(sessionId);
        running += 1;
        peak = Math.max(peak, running);
        await new Promise<void>((resolve) => {
          gate.push(resolve);
          if (gate.length >= 2 || sessions.length === 5) for (const open of gate.splice(0)) open();
        });
        running -= 1;
        return {
          toolCalls: [],
          response: '',
          usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0, modelCalls: 0 },
          latencyMs: 0,
        };
      },
    };
    const set = parseEvalSet({
      name: 's',
      cases: ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id, turns: [{ user: id }] })),
    });
    await runEval({ set, target, concurrency: 2 });
    expect(peak).toBe(2);
    expect(new Set(sessions).size).toBe(5);
  });

  it('answers a paused turn with a resume turn', async () => {
    const refund = tool({
      name: 'refund',
      description: 'Refunds an order',
      parameters: z.object({ order: z.string() }),
      needsApproval: true,
      execute: ({ order }) => `refunded ${order}`,
    });
    const agent = new ChatModelAgent({
      name: 'support',
      model: new ScriptedChatModel((messages) => {
        const last = messages.at(-1);
        return last?.role === 'tool'
          ? `Done: ${messageText(last)}`
          : { toolCalls: [{ name: 'refund', arguments: { order: 'A1' } }] };
      }),
      tools: [refund],
    });
    const set = parseEvalSet({
      name: 'hitl',
      cases: [
        {
          id: 'approved',
          turns: [
            { user: 'refund A1', expect: { tools: [{ name: 'refund', args: { order: 'A1' } }] } },
            { resume: true, expect: { response: { contains: 'refunded A1' } } },
          ],
        },
        { id: 'unanswered', turns: [{ user: 'refund A1' }, { user: 'hello?' }] },
      ],
    });
    const report = await runEval({ set, target: agentTarget(agent) });
    expect(report.cases[0]?.runs[0]?.pass).toBe(true);
    expect(report.cases[1]?.runs[0]?.error).toMatch(/turn 1 ended paused .* and no resume turn follows/);
  });

  it('filters by tags and case ids, and prices usage', async () => {
    const set = await loadEvalSet(setPath);
    const report = await runEval({
      set,
      target: agentTarget(calculator),
      tags: ['smoke'],
      cost: (usage) => usage.totalTokens * 0.001,
    });
    expect(report.cases.map((c) => c.caseId)).toEqual(['adds']);
    expect(report.totals.cost).toBeCloseTo((report.totals.totalTokens * 0.001) as number);
    await expect(runEval({ set, target: agentTarget(calculator), caseIds: ['nope'] })).rejects.toThrow(
      /no case of "calculator"/,
    );
    await expect(runEval({ set, target: agentTarget(calculator), repeats: 0 })).rejects.toThrow(
      /repeats must be a whole number >= 1/,
    );
  });
});
