import { END, START, StateGraph } from '@weft/compose';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { graphTarget, parseEvalSet, runEval, runEvalCli } from '../src/index.js';
import { faq, refund } from './fixtures/graphs.ts';

const fixtures = new URL('./fixtures/', import.meta.url).pathname;

function io() {
  const lines: string[] = [];
  return {
    lines,
    io: { out: (t: string) => lines.push(t), err: (t: string) => lines.push(t), cwd: fixtures },
  };
}

describe('graph targets', () => {
  it('weft eval --graph runs a compiled graph: turns continue one thread, tools come from its agents', async () => {
    const { lines, io: cli } = io();
    expect(await runEvalCli(['graphs.yaml', '--module', 'graphs.ts', '--graph', 'support'], cli)).toBe(0);
    expect(lines.join('\n')).toMatch(/adds-through-the-graph .*pass/i);
  });

  it('finds the input and the response, or takes them from --input-key and --output-key', async () => {
    const set = parseEvalSet({
      name: 'faq',
      cases: [
        {
          id: 'hours',
          turns: [{ user: 'What are your hours?', expect: { response: { contains: 'open at 9' } } }],
        },
        {
          id: 'other',
          turns: [{ user: 'Do you sell bikes?', expect: { response: { contains: 'person' } } }],
        },
      ],
    });
    // faq takes one string field (question) and answers in `answer`
    const report = await runEval({ set, target: graphTarget(faq, { outputKey: 'answer' }) });
    expect(report.totals.passed).toBe(2);
    const { io: cli } = io();
    const file = `${fixtures}../../test-results/faq.yaml`;
    const { writeFile, mkdir } = await import('node:fs/promises');
    await mkdir(`${fixtures}../../test-results`, { recursive: true });
    await writeFile(
      file,
      'name: faq\ncases:\n  - id: parking\n    turns:\n      - user: Where is parking?\n        expect: { response: { contains: behind } }\n',
    );
    expect(await runEvalCli([file, '-m', 'graphs.ts', '-g', 'faq', '--output-key', 'answer'], cli)).toBe(0);
    // without --output-key the whole output is the response (as JSON), which still contains it
    expect(await runEvalCli([file, '-m', 'graphs.ts', '-g', 'faq', '--input-key', 'question'], cli)).toBe(0);
  });

  it('answers a pause with a resume turn, on the same thread', async () => {
    const set = parseEvalSet({
      name: 'refund',
      cases: [
        {
          id: 'approved',
          turns: [
            { user: 'order 7' },
            { resume: true, expect: { response: { exact: 'Refunded: order 7' } } },
          ],
        },
        { id: 'unanswered', turns: [{ user: 'order 8' }, { user: 'hello?' }] },
      ],
    });
    const report = await runEval({ set, target: graphTarget(refund, { outputKey: 'answer' }) });
    expect(report.cases.map((c) => [c.caseId, c.runs[0]?.pass])).toEqual([
      ['approved', true],
      ['unanswered', false],
    ]);
    expect(report.cases[1]?.runs[0]?.error).toMatch(/turn 1 ended paused/);
  });

  it('refuses a graph whose input it cannot tell, naming the options', () => {
    const ambiguous = new StateGraph(z.object({ from: z.string(), to: z.string() }))
      .addNode('copy', (s) => ({ to: s.from }))
      .addEdge(START, 'copy')
      .addEdge('copy', END)
      .compile({ name: 'copy' });
    expect(() => graphTarget(ambiguous)).toThrow(
      'graph "copy": cannot tell which input takes a turn\'s text (string inputs: from, to); give inputKey (weft eval --input-key) or input',
    );
    expect(() => graphTarget(ambiguous, { inputKey: 'from' })).not.toThrow();
  });

  it("names the module's graphs when --graph finds none", async () => {
    const { lines, io: cli } = io();
    expect(await runEvalCli(['graphs.yaml', '--module', 'graphs.ts', '--graph', 'nope'], cli)).toBe(2);
    expect(lines.at(-1)).toBe('graphs.ts has no graph "nope"; it offers: support, faq, refund');
  });
});
