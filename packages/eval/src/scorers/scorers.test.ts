import { ScriptedChatModel } from '@weft/adk/testing';
import { describe, expect, it } from 'vitest';
import type { CapturedToolCall, TurnCapture } from '../capture/turn-capture.js';
import type { EvalCase, EvalTurn, ExpectedToolCall, TrajectoryMatch } from '../eval-set.js';
import { llmJudge } from './llm-judge.js';
import { responseScorer, rougeScorer } from './response-scorer.js';
import { rouge1 } from './rouge.js';
import { defineScorer } from './scorer.js';
import { compareTrajectory, trajectoryScorer } from './trajectory-scorer.js';

const call = (name: string, args: unknown = {}): CapturedToolCall => ({
  name,
  args,
  id: `c_${name}`,
  author: 'a',
});
const capture = (response: string, toolCalls: CapturedToolCall[] = []): TurnCapture => ({
  toolCalls,
  response,
  usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0, modelCalls: 0 },
  latencyMs: 0,
});
const input = (turns: Array<{ turn: EvalTurn; capture: TurnCapture }>) => ({
  evalCase: { id: 'c', tags: [], turns: turns.map((t) => t.turn) } as EvalCase,
  turns,
});

describe('trajectory matching', () => {
  const expected: ExpectedToolCall[] = [{ name: 'search' }, { name: 'book', args: { seat: '1A' } }];
  const cases: Array<[TrajectoryMatch, CapturedToolCall[], number]> = [
    ['exact', [call('search'), call('book', { seat: '1A' })], 1],
    ['exact', [call('book', { seat: '1A' }), call('search')], 0],
    ['exact', [call('search'), call('log'), call('book', { seat: '1A' })], 0],
    ['exact', [call('search'), call('book', { seat: '2B' })], 0],
    ['inOrder', [call('search'), call('log'), call('book', { seat: '1A' })], 1],
    ['inOrder', [call('book', { seat: '1A' }), call('search')], 0],
    ['anyOrder', [call('book', { seat: '1A' }), call('log'), call('search')], 1],
    ['anyOrder', [call('search'), call('search')], 0],
    ['subset', [call('search')], 1],
    ['subset', [call('search'), call('log')], 0],
    ['subset', [], 1],
  ];
  it.each(cases)('%s against %j scores %d', (match, actual, score) => {
    expect(compareTrajectory(expected, actual, match).score).toBe(score);
  });

  it('explains an argument mismatch with its path', () => {
    const result = compareTrajectory(expected, [call('search'), call('book', { seat: '2B' })], 'exact');
    expect(result.reason).toContain('call 2 (book) arguments $.seat: expected "1A", got "2B"');
  });

  it('averages turns that expect tools, uses the turn mode over the scorer default, skips the rest', async () => {
    const scorer = trajectoryScorer({ match: 'exact' });
    const value = await scorer.score(
      input([
        {
          turn: { user: 'a', expect: { tools: [{ name: 'x' }], toolMatch: 'subset' } },
          capture: capture('', []),
        },
        { turn: { user: 'b', expect: { tools: [{ name: 'x' }] } }, capture: capture('', [call('y')]) },
        { turn: { user: 'c' }, capture: capture('', [call('z')]) },
      ]),
    );
    expect(value?.score).toBe(0.5);
    expect(await scorer.score(input([{ turn: { user: 'c' }, capture: capture('') }]))).toBeUndefined();
  });
});

describe('response scorers', () => {
  it('checks exact, contains (all of a list) and regex together', async () => {
    const scorer = responseScorer();
    const turn = (response: EvalTurn['expect']) => ({ user: 'q', expect: response });
    const score = async (expectation: EvalTurn['expect'], response: string) =>
      (await scorer.score(input([{ turn: turn(expectation), capture: capture(response) }])))?.score;
    expect(await score({ response: { exact: 'Paris' } }, ' Paris ')).toBe(1);
    expect(await score({ response: { contains: ['Paris', 'France'] } }, 'Paris is nice')).toBe(0);
    expect(await score({ response: { regex: '^\\d+$' } }, '42')).toBe(1);
    expect(await score({ response: { contains: 'x', regex: 'y' } }, 'x')).toBe(0);
    expect(await score({ response: { reference: 'x' } }, 'x')).toBeUndefined();
  });

  it('computes ROUGE-1 F1 on word unigrams', () => {
    expect(rouge1('Paris is the capital of France', 'the capital of France is Paris')).toBe(1);
    expect(rouge1('a b', 'a c')).toBeCloseTo(0.5);
    expect(rouge1('', 'a')).toBe(0);
  });

  it('passes ROUGE at its threshold only', async () => {
    const scorer = rougeScorer({ threshold: 0.8 });
    const value = await scorer.score(
      input([
        {
          turn: { user: 'q', expect: { response: { reference: 'the answer is 42' } } },
          capture: capture('answer: 42'),
        },
      ]),
    );
    expect(value?.score).toBeCloseTo((2 * 1 * 0.5) / 1.5);
    expect(() => rougeScorer({ threshold: 2 })).toThrow(/threshold must be between 0 and 1, got 2/);
  });
});

describe('LLM judge', () => {
  it('asks the model with the rubric and reads its score', async () => {
    const model = new ScriptedChatModel((messages) =>
      JSON.stringify({ score: /polite/.test(String(messages[1]?.content)) ? 0.9 : 0.1, reason: 'graded' }),
    );
    const judge = llmJudge({ model, threshold: 0.7 });
    const value = await judge.score(
      input([
        {
          turn: { user: 'hi', expect: { response: { rubric: 'The answer is polite' } } },
          capture: capture('Hello!'),
        },
      ]),
    );
    expect(value).toEqual({ score: 0.9, reason: 'turn 1: graded' });
    expect(model.calls[0]?.options.responseFormat?.name).toBe('grade');
    expect(String(model.calls[0]?.messages[1]?.content)).toContain("Agent's final answer: Hello!");
  });

  it('fails with JUDGE_FAILED when the reply has no score', async () => {
    const judge = llmJudge({ model: new ScriptedChatModel(['I think it is fine']) });
    await expect(
      judge.score(
        input([{ turn: { user: 'hi', expect: { response: { rubric: 'r' } } }, capture: capture('x') }]),
      ),
    ).rejects.toMatchObject({ code: 'JUDGE_FAILED' });
  });
});

it('custom scorers are functions with a threshold', async () => {
  const short = defineScorer('short', 1, ({ turns }) => ({
    score: turns.every((t) => t.capture.response.length < 5) ? 1 : 0,
    reason: 'length',
  }));
  expect(
    (await short.score(input([{ turn: { user: 'q' }, capture: capture('a long answer') }])))?.score,
  ).toBe(0);
});
