import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { EvaluationError } from './evaluation-error.js';

/** How an expected tool list is compared with the calls the agent made in a turn. */
export const trajectoryMatchSchema = z.enum(['exact', 'inOrder', 'anyOrder', 'subset']);

/**
 * How an expected call's arguments are compared with the actual ones: `partial` (default: expected keys
 * must match, extra actual keys are fine, matchers apply), `exact` (agentevals' and Google ADK's
 * default: the same keys at every level), `subset` (every actual argument is an expected one, with the
 * same value), `ignore` (names only).
 */
export const argsMatchSchema = z.enum(['partial', 'exact', 'subset', 'ignore']);

/**
 * The least score each scorer must reach, by scorer name (`trajectory`, `response`, `rouge`, `judge`, or
 * a custom scorer's), each in [0, 1] — Google ADK's `test_config.json` criteria; ADK's metric names
 * (`tool_trajectory_avg_score`, `response_match_score`, `final_response_match_v2`,
 * `response_evaluation_score`) are accepted too.
 */
export const criteriaSchema = z.record(
  z.string().min(1),
  z.number().min(0, 'a threshold is at least 0').max(1, 'a threshold is at most 1'),
);

/** One expected tool call: its name and, optionally, argument matchers (see `matchValue`). */
export const expectedToolCallSchema = z.object({
  name: z.string().min(1),
  args: z.unknown().optional(),
});

/** What the final response of a turn must be: one of exact, contains, regex, rubric or reference. */
export const expectedResponseSchema = z
  .object({
    exact: z.string().optional(),
    contains: z.union([z.string(), z.array(z.string()).min(1)]).optional(),
    regex: z.string().optional(),
    flags: z.string().optional(),
    /** Graded by the LLM judge. */
    rubric: z.string().optional(),
    /** Compared by ROUGE-1 overlap. */
    reference: z.string().optional(),
  })
  .strict()
  .refine(
    (value) =>
      [value.exact, value.contains, value.regex, value.rubric, value.reference].some((v) => v !== undefined),
    { message: 'give at least one of exact, contains, regex, rubric or reference' },
  );

/** One user turn (or a resume of a paused turn) and what is expected of the agent's answer. */
export const evalTurnSchema = z
  .object({
    user: z.string().optional(),
    /** Answers the pause the previous turn ended in (`runner.resume` decisions). */
    resume: z.unknown().optional(),
    expect: z
      .object({
        tools: z.array(expectedToolCallSchema).optional(),
        toolMatch: trajectoryMatchSchema.optional(),
        argsMatch: argsMatchSchema.optional(),
        response: expectedResponseSchema.optional(),
      })
      .strict()
      .optional(),
  })
  .strict()
  .refine((turn) => (turn.user === undefined) !== (turn.resume === undefined), {
    message: 'a turn has exactly one of `user` (a message) or `resume` (decisions)',
  });

/** One case: a conversation of turns, an initial session state and tags. */
export const evalCaseSchema = z
  .object({
    id: z.string().min(1),
    description: z.string().optional(),
    tags: z.array(z.string()).default([]),
    state: z.record(z.string(), z.unknown()).optional(),
    /** Thresholds for this case, over the run's and the set's. */
    criteria: criteriaSchema.optional(),
    turns: z.array(evalTurnSchema).min(1),
  })
  .strict();

/** An eval set file: a name and its cases (ids unique). */
export const evalSetSchema = z
  .object({
    name: z.string().min(1),
    description: z.string().optional(),
    /** Thresholds of every case (a case's own, or the run's, win). */
    criteria: criteriaSchema.optional(),
    /** How tool arguments compare unless a turn (or the run) says. */
    argsMatch: argsMatchSchema.optional(),
    cases: z.array(evalCaseSchema).min(1),
  })
  .strict()
  .superRefine((set, ctx) => {
    const seen = new Set<string>();
    set.cases.forEach((c, index) => {
      if (seen.has(c.id))
        ctx.addIssue({
          code: 'custom',
          path: ['cases', index, 'id'],
          message: `duplicate case id "${c.id}"`,
        });
      seen.add(c.id);
    });
  });

/** A parsed, validated eval set. */
export type EvalSet = z.infer<typeof evalSetSchema>;
/** One case of an {@link EvalSet}. */
export type EvalCase = z.infer<typeof evalCaseSchema>;
/** One turn of an {@link EvalCase}. */
export type EvalTurn = z.infer<typeof evalTurnSchema>;
/** An expected tool call. */
export type ExpectedToolCall = z.infer<typeof expectedToolCallSchema>;
/** An expected final response. */
export type ExpectedResponse = z.infer<typeof expectedResponseSchema>;
/** How expected and actual tool calls are compared. */
export type TrajectoryMatch = z.infer<typeof trajectoryMatchSchema>;
/** How expected and actual tool arguments are compared. */
export type ArgsMatch = z.infer<typeof argsMatchSchema>;
/** Thresholds by scorer name. */
export type Criteria = z.infer<typeof criteriaSchema>;

/**
 * Validates an eval set given as a plain object (or JSON/YAML text with `format`).
 *
 * @throws {EvaluationError} `INVALID_EVAL_SET` listing every problem with its path (e.g. `cases.0.turns`).
 * @example
 * ```ts
 * const set = parseEvalSet(`
 * name: calculator
 * cases:
 *   - id: add
 *     turns:
 *       - user: What is 1 + 2?
 *         expect:
 *           tools: [{ name: add, args: { a: 1, b: 2 } }]
 *           response: { contains: "3" }
 * `, 'yaml');
 * ```
 */
export function parseEvalSet(input: unknown, format?: 'json' | 'yaml', source = 'eval set'): EvalSet {
  let value = input;
  if (typeof input === 'string' && format !== undefined) {
    try {
      value = format === 'json' ? JSON.parse(input) : parseYaml(input);
    } catch (error) {
      throw new EvaluationError(
        'INVALID_EVAL_SET',
        `${source}: not valid ${format.toUpperCase()}: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
  }
  const parsed = evalSetSchema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map(
      (issue) => `  ${issue.path.join('.') || '(root)'}: ${issue.message}`,
    );
    throw new EvaluationError(
      'INVALID_EVAL_SET',
      `${source} is not a valid eval set:\n${issues.join('\n')}`,
      {
        cause: parsed.error,
      },
    );
  }
  return parsed.data;
}

/**
 * Reads and validates an eval set file (`.json`, `.yaml` or `.yml`).
 *
 * @throws {EvaluationError} `INVALID_EVAL_SET` naming the file and each problem.
 * @example
 * ```ts
 * const set = await loadEvalSet('evals/calculator.yaml');
 * console.log(set.cases.length);
 * ```
 */
export async function loadEvalSet(path: string): Promise<EvalSet> {
  const extension = extname(path).toLowerCase();
  const format =
    extension === '.json' ? 'json' : extension === '.yaml' || extension === '.yml' ? 'yaml' : undefined;
  if (!format)
    throw new EvaluationError('INVALID_ARGUMENT', `${path}: an eval set file ends in .json, .yaml or .yml`);
  const text = await readFile(path, 'utf8').catch((error: unknown) => {
    throw new EvaluationError(
      'INVALID_ARGUMENT',
      `${path}: cannot read the eval set (${(error as Error).message})`,
      {
        cause: error,
      },
    );
  });
  return parseEvalSet(text, format, path);
}
