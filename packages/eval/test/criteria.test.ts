import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChatModelAgent, tool } from '@weft/adk';
import { ScriptedChatModel } from '@weft/adk/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentTarget, compareTrajectory, parseEvalSet, runEval, runEvalCli } from '../src/index.js';

const fixtures = new URL('./fixtures/', import.meta.url).pathname;

/** An agent that answers with a fixed text: ROUGE-1 against the reference decides each case. */
function echoAgent(answer: string) {
  return new ChatModelAgent({ name: 'echo', model: new ScriptedChatModel(() => answer) });
}

// 'the cat sat on the mat' against 'the cat sat on a mat': ROUGE-1 F1 = 5/6 ≈ 0.83
const set = {
  name: 'rouge',
  criteria: { rouge: 0.9 },
  cases: [
    {
      id: 'strict',
      turns: [{ user: 'say it', expect: { response: { reference: 'the cat sat on a mat' } } }],
    },
    {
      id: 'lenient',
      criteria: { rouge: 0.5 },
      turns: [{ user: 'say it', expect: { response: { reference: 'the cat sat on a mat' } } }],
    },
  ],
};

describe('thresholds from the eval set and the run', () => {
  it('takes each scorer threshold from the case, else the run, else the set file, else the scorer', async () => {
    const agent = echoAgent('the cat sat on the mat');
    const fromFile = await runEval({ set: parseEvalSet(set), target: agentTarget(agent) });
    const verdicts = (report: typeof fromFile) =>
      report.cases.map((c) => [
        c.caseId,
        c.runs[0]?.scores.find((s) => s.scorer === 'rouge')?.threshold,
        c.runs[0]?.pass,
      ]);
    expect(verdicts(fromFile)).toEqual([
      ['strict', 0.9, false],
      ['lenient', 0.5, true],
    ]);
    // a run-level criterion (as the CLI's --threshold) overrides the set file, not the case
    const fromRun = await runEval({
      set: parseEvalSet(set),
      target: agentTarget(agent),
      criteria: { rouge: 0.8 },
    });
    expect(verdicts(fromRun)).toEqual([
      ['strict', 0.8, true],
      ['lenient', 0.5, true],
    ]);
    // without any, the scorer's own default (ROUGE 0.8)
    const { criteria: _dropped, ...plain } = set;
    const defaults = await runEval({
      set: parseEvalSet({ ...plain, cases: [plain.cases[0]] }),
      target: agentTarget(agent),
    });
    expect(verdicts(defaults)).toEqual([['strict', 0.8, true]]);
  });

  it("accepts Google ADK's criteria names and refuses unknown ones, naming where", async () => {
    const adk = parseEvalSet({ ...set, criteria: { response_match_score: 0.9 } });
    const report = await runEval({ set: adk, target: agentTarget(echoAgent('the cat sat on the mat')) });
    expect(report.cases[0]?.runs[0]?.scores.find((s) => s.scorer === 'rouge')?.threshold).toBe(0.9);
    await expect(
      runEval({
        set: parseEvalSet({ ...set, cases: [{ ...set.cases[1], criteria: { rogue: 0.5 } }] }),
        target: agentTarget(echoAgent('x')),
      }),
    ).rejects.toThrow(/cases\.0\.criteria: no scorer "rogue"; known: trajectory, response, rouge, judge/);
    expect(() => parseEvalSet({ ...set, criteria: { rouge: 1.5 } })).toThrow(/criteria\.rouge/);
  });

  it('the CLI takes --threshold and an ADK test_config.json (--criteria)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'weft-eval-criteria-'));
    // the calculator answers "The answer is 42.": ROUGE-1 F1 against this reference is 0.67
    const setFile = join(dir, 'forty-two.yaml');
    await writeFile(
      setFile,
      'name: forty-two\ncases:\n  - id: times\n    turns:\n      - user: And 6 times 7?\n        expect:\n          response: { reference: "The answer is forty two." }\n',
    );
    const config = join(dir, 'test_config.json');
    await writeFile(
      config,
      JSON.stringify({ criteria: { tool_trajectory_avg_score: 1, response_match_score: 0.5 } }),
    );
    const lines: string[] = [];
    const io = { out: (t: string) => lines.push(t), err: (t: string) => lines.push(t), cwd: fixtures };
    const args = [setFile, '--module', 'calculator.ts', '--agent', 'calculator'];
    expect(await runEvalCli(args, io)).toBe(1); // ROUGE's default threshold, 0.8
    expect(await runEvalCli([...args, '--threshold', 'rouge=0.6'], io)).toBe(0);
    expect(await runEvalCli([...args, '--criteria', config], io)).toBe(0);
    expect(await runEvalCli([...args, '--criteria', config, '--threshold', 'rouge=0.7'], io)).toBe(1);
    expect(await runEvalCli([...args, '--threshold', 'rouge=2'], io)).toBe(2);
    expect(lines.at(-1)).toMatch(/--threshold rouge=2: a threshold is a number from 0 to 1/);
  });
});

describe('trajectory argument matching', () => {
  const book = (args: unknown) => ({ name: 'book', args, id: 'c1', author: 'a' });
  const expected = [{ name: 'book', args: { seat: '1A', meal: { kind: 'veg' } } }];
  const extra = [book({ seat: '1A', meal: { kind: 'veg', spicy: false }, note: 'window' })];
  const same = [book({ seat: '1A', meal: { kind: 'veg' } })];
  const fewer = [book({ seat: '1A' })];

  it("is partial by default: extra actual arguments are fine, as Weft's matchers read them", () => {
    expect(compareTrajectory(expected, extra, 'exact').score).toBe(1);
    expect(compareTrajectory(expected, fewer, 'exact').score).toBe(0);
  });

  it("offers agentevals' and ADK's exact matching, and agentevals' subset and ignore", () => {
    expect(compareTrajectory(expected, same, 'exact', 'exact').score).toBe(1);
    const refused = compareTrajectory(expected, extra, 'exact', 'exact');
    expect(refused.score).toBe(0);
    expect(refused.reason).toContain('arguments $.meal.spicy: not expected (exact arguments)');
    expect(compareTrajectory(expected, fewer, 'exact', 'subset').score).toBe(1);
    expect(compareTrajectory(expected, extra, 'exact', 'subset').score).toBe(0);
    expect(compareTrajectory(expected, [book({ seat: '9Z' })], 'exact', 'ignore').score).toBe(1);
  });

  it('is chosen per turn, per set, or per run (the CLI --args-match)', async () => {
    const add = tool({
      name: 'add',
      description: 'Adds',
      parameters: z.object({ a: z.number(), b: z.number(), round: z.boolean().optional() }),
      execute: ({ a, b }) => a + b,
    });
    const agent = new ChatModelAgent({
      name: 'calc',
      model: new ScriptedChatModel((messages) =>
        messages.at(-1)?.role === 'tool'
          ? 'done'
          : { toolCalls: [{ name: 'add', arguments: { a: 1, b: 2, round: true } }] },
      ),
      tools: [add],
    });
    const turn = { user: 'add', expect: { tools: [{ name: 'add', args: { a: 1, b: 2 } }] } };
    const passes = async (input: object, options: object = {}) =>
      (await runEval({ set: parseEvalSet(input), target: agentTarget(agent), ...options })).totals.passed ===
      1;
    const cases = [{ id: 'c', turns: [turn] }];
    expect(await passes({ name: 's', cases })).toBe(true);
    expect(await passes({ name: 's', argsMatch: 'exact', cases })).toBe(false);
    expect(
      await passes({
        name: 's',
        cases: [{ id: 'c', turns: [{ ...turn, expect: { ...turn.expect, argsMatch: 'exact' } }] }],
      }),
    ).toBe(false);
    expect(await passes({ name: 's', cases }, { argsMatch: 'exact' })).toBe(false);
    // the turn says last
    expect(
      await passes(
        {
          name: 's',
          argsMatch: 'exact',
          cases: [{ id: 'c', turns: [{ ...turn, expect: { ...turn.expect, argsMatch: 'partial' } }] }],
        },
        { argsMatch: 'exact' },
      ),
    ).toBe(true);
  });
});
