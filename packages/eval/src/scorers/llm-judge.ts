import { type ChatModel, messageText, systemMessage, userMessage } from '@weft/adk';
import { EvaluationError } from '../evaluation-error.js';
import type { TurnResult } from './scorer.js';
import { checkThreshold, type Scorer, type ScoreValue } from './scorer.js';

/** Options of {@link llmJudge}. */
export interface LlmJudgeOptions {
  /** The model that grades (any `ChatModel`; a `ScriptedChatModel` in tests and offline runs). */
  readonly model: ChatModel;
  /** Default 0.5. */
  readonly threshold?: number;
  /** Replaces the grading instructions sent before the rubric. */
  readonly instructions?: string;
}

const DEFAULT_INSTRUCTIONS = [
  'You grade one answer of an AI agent against a rubric.',
  'Read the conversation turn, the tools the agent called and its final answer.',
  'Reply with only a JSON object: {"score": <number from 0 to 1>, "reason": "<one sentence>"}.',
  '1 means the answer fully meets the rubric, 0 that it does not meet it at all.',
].join('\n');

const JUDGE_SCHEMA = {
  type: 'object',
  properties: { score: { type: 'number', minimum: 0, maximum: 1 }, reason: { type: 'string' } },
  required: ['score', 'reason'],
  additionalProperties: false,
} as const;

/**
 * Grades each turn whose `expect.response.rubric` is set by asking a model, which answers
 * `{"score": 0..1, "reason": "..."}` (structured output is requested; the first JSON object in the reply
 * is read). The case score is the mean over such turns.
 *
 * @throws {EvaluationError} `JUDGE_FAILED` (recorded on the case) when the judge's reply has no valid score.
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const judge = llmJudge({
 *   model: new ScriptedChatModel(() => '{"score": 1, "reason": "polite and correct"}'),
 *   threshold: 0.7,
 * });
 * ```
 */
export function llmJudge(options: LlmJudgeOptions): Scorer {
  const threshold = options.threshold ?? 0.5;
  checkThreshold('judge', threshold);
  return {
    name: 'judge',
    threshold,
    async score({ turns, signal }) {
      const graded: ScoreValue[] = [];
      for (const [index, result] of turns.entries()) {
        const rubric = result.turn.expect?.response?.rubric;
        if (rubric === undefined) continue;
        const value = await grade(options, rubric, result, signal);
        graded.push({ score: value.score, reason: `turn ${index + 1}: ${value.reason}` });
      }
      if (graded.length === 0) return undefined;
      return {
        score: graded.reduce((sum, g) => sum + g.score, 0) / graded.length,
        reason: graded.map((g) => g.reason).join('; '),
      };
    },
  };
}

async function grade(
  options: LlmJudgeOptions,
  rubric: string,
  { turn, capture }: TurnResult,
  signal: AbortSignal | undefined,
): Promise<ScoreValue> {
  const tools = capture.toolCalls.map((call) => `${call.name}(${JSON.stringify(call.args)})`).join(', ');
  const prompt = [
    `Rubric: ${rubric}`,
    `User: ${turn.user ?? `(resumed with ${JSON.stringify(turn.resume)})`}`,
    `Tools called: ${tools || 'none'}`,
    `Agent's final answer: ${capture.response}`,
  ].join('\n');
  const reply = await options.model.generate(
    [systemMessage(options.instructions ?? DEFAULT_INSTRUCTIONS), userMessage(prompt)],
    {
      responseFormat: { type: 'json_schema', name: 'grade', schema: JUDGE_SCHEMA, strict: true },
      temperature: 0,
      ...(signal ? { signal } : {}),
    },
  );
  return parseGrade(messageText(reply), options.model.name);
}

function parseGrade(text: string, model: string): ScoreValue {
  const json = text.match(/\{[\s\S]*\}/)?.[0];
  let parsed: { score?: unknown; reason?: unknown } | undefined;
  try {
    parsed = json ? (JSON.parse(json) as typeof parsed) : undefined;
  } catch {
    parsed = undefined;
  }
  const score = parsed?.score;
  if (typeof score !== 'number' || !(score >= 0 && score <= 1))
    throw new EvaluationError(
      'JUDGE_FAILED',
      `judge ${model} did not answer {"score": 0..1, "reason": ...}; it said: ${JSON.stringify(text.slice(0, 200))}`,
    );
  return { score, reason: typeof parsed?.reason === 'string' ? parsed.reason : 'no reason given' };
}
