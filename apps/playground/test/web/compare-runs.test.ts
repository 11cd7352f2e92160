import type { CaseSummary, EvalReport } from '@weft/eval';
import { expect, it } from 'vitest';
import { compareReports } from '../../web/src/evals/compare-runs.ts';

function summary(caseId: string, pass: boolean, score: number): CaseSummary {
  const run = {
    caseId,
    repeat: 0,
    turns: [],
    scores: [{ scorer: 'trajectory', score, threshold: 1, pass: score >= 1, reason: '' }],
    pass,
    latencyMs: 0,
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0, modelCalls: 0 },
  };
  return { caseId, tags: [], runs: [run], passes: pass ? 1 : 0, passAtK: pass, passAllK: pass };
}

function report(cases: CaseSummary[]): EvalReport {
  return {
    set: 's',
    target: 't',
    repeats: 1,
    durationMs: 0,
    cases,
    totals: { cases: cases.length, passed: 0, passedAll: 0, runPassRate: 0, totalTokens: 0 },
  };
}

it('labels each case fixed, regressed, unchanged, added or removed, with score deltas', () => {
  const before = report([
    summary('a', true, 1),
    summary('b', false, 0),
    summary('c', true, 1),
    summary('gone', true, 1),
  ]);
  const after = report([
    summary('a', false, 0),
    summary('b', true, 1),
    summary('c', true, 1),
    summary('new', false, 0),
  ]);
  const rows = compareReports(before, after);
  expect(rows.map((r) => [r.caseId, r.change])).toEqual([
    ['a', 'regressed'],
    ['b', 'fixed'],
    ['c', 'same-pass'],
    ['gone', 'removed'],
    ['new', 'added'],
  ]);
  expect(rows[0]?.scores.get('trajectory')).toEqual([1, 0]);
  expect(rows[3]?.scores.get('trajectory')).toEqual([1, undefined]);
});
