import type { Message } from '@weft/adk';
import { messageText } from '@weft/adk';
import { z } from 'zod';

/**
 * Session key of the request the current plan serves (the user's latest message when it was planned).
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel
 * const runner = new Runner({
 *   agent: createPlanExecute({ planner: { model }, executor: { model }, replanner: { model } }),
 *   sessionService: new MemorySessionService(),
 * });
 * for await (const event of runner.run({ userId: 'u1', sessionId: 's1', message: 'What is half of 84?' })) void event;
 * const session = await runner.sessionService.get({ appName: runner.appName, userId: 'u1', sessionId: 's1' });
 * const request = session?.state[PLAN_INPUT_KEY]; // 'What is half of 84?'
 * ```
 */
export const PLAN_INPUT_KEY = 'plan_input';
/**
 * Session key of the steps still to do (the first one is the open step the executor works on).
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel
 * const runner = new Runner({
 *   agent: createPlanExecute({ planner: { model }, executor: { model }, replanner: { model } }),
 *   sessionService: new MemorySessionService(),
 * });
 * for await (const event of runner.run({ userId: 'u1', sessionId: 's1', message: 'What is half of 84?' })) void event;
 * const session = await runner.sessionService.get({ appName: runner.appName, userId: 'u1', sessionId: 's1' });
 * const left = session?.state[PLAN_KEY]; // the steps still to do, e.g. ['Halve it']
 * ```
 */
export const PLAN_KEY = 'plan_steps';
/**
 * Session key of the steps done in this plan, with their results ({@link ExecutedStep}).
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel
 * const runner = new Runner({
 *   agent: createPlanExecute({ planner: { model }, executor: { model }, replanner: { model } }),
 *   sessionService: new MemorySessionService(),
 * });
 * for await (const event of runner.run({ userId: 'u1', sessionId: 's1', message: 'What is half of 84?' })) void event;
 * const session = await runner.sessionService.get({ appName: runner.appName, userId: 'u1', sessionId: 's1' });
 * const done = session?.state[EXECUTED_STEPS_KEY]; // [{ step: 'Search', result: 'Found it' }, …]
 * ```
 */
export const EXECUTED_STEPS_KEY = 'plan_executed';

/**
 * The arguments of the `plan` tool: the steps to do, in order.
 *
 * @example
 * ```ts
 * planSchema.parse({ steps: ['Search', 'Answer'] });
 * ```
 */
export const planSchema = z.object({
  steps: z
    .array(z.string().min(1))
    .min(1)
    .describe('The steps still to do, in order; each self-contained, the last one giving the answer'),
});

/**
 * A plan: the steps to do, in order.
 *
 * @example
 * ```ts
 * const plan: Plan = { steps: ['Find the population of Oslo', 'Divide it by 2'] };
 * ```
 */
export type Plan = z.infer<typeof planSchema>;

/**
 * The schema of one executed step.
 *
 * @example
 * ```ts
 * executedStepSchema.parse({ step: 'Search', result: 'Found it' });
 * ```
 */
export const executedStepSchema = z.object({ step: z.string(), result: z.string() });

/**
 * A step the executor did and what it found.
 *
 * @example
 * ```ts
 * const done: ExecutedStep = { step: 'Find the population of Oslo', result: '709 000' };
 * ```
 */
export type ExecutedStep = z.infer<typeof executedStepSchema>;

/**
 * The steps still to do, from session state (none when missing or malformed).
 *
 * @example
 * ```ts
 * const session = { state: { [PLAN_KEY]: ['Search', 'Halve it'] } };
 * const [next] = readPlan(new Map(Object.entries(session.state))); // 'Search'
 * readPlan(new Map()); // []
 * ```
 */
export function readPlan(state: { get(key: string): unknown }): string[] {
  const parsed = planSchema.shape.steps.safeParse(state.get(PLAN_KEY));
  return parsed.success ? parsed.data : [];
}

/**
 * The executed steps of the current plan, from session state.
 *
 * @example
 * ```ts
 * const state = new Map<string, unknown>([[EXECUTED_STEPS_KEY, [{ step: 'Search', result: 'Found it' }]]]);
 * const done = readExecutedSteps(state).length; // 1
 * ```
 */
export function readExecutedSteps(state: { get(key: string): unknown }): ExecutedStep[] {
  const parsed = z.array(executedStepSchema).safeParse(state.get(EXECUTED_STEPS_KEY));
  return parsed.success ? parsed.data : [];
}

/**
 * Numbered lines of steps, or `(none)`.
 *
 * @example
 * ```ts
 * formatSteps(['Search', 'Answer']); // '1. Search\n2. Answer'
 * ```
 */
export function formatSteps(steps: readonly string[]): string {
  return steps.length === 0 ? '(none)' : steps.map((step, i) => `${i + 1}. ${step}`).join('\n');
}

/**
 * Numbered executed steps with their results, or `(none)`.
 *
 * @example
 * ```ts
 * formatExecutedSteps([{ step: 'Search', result: 'Found it' }]); // '1. Search\n   Result: Found it'
 * ```
 */
export function formatExecutedSteps(steps: readonly ExecutedStep[]): string {
  if (steps.length === 0) return '(none)';
  return steps.map((s, i) => `${i + 1}. ${s.step}\n   Result: ${s.result}`).join('\n');
}

/**
 * The text of the user's latest message in a conversation (messages without an author).
 *
 * @example
 * ```ts
 * latestUserText([userMessage('Hi'), assistantMessage('Hello')]); // 'Hi'
 * ```
 */
export function latestUserText(messages: readonly Message[]): string {
  const last = [...messages].reverse().find((m) => m.role === 'user' && m.author === undefined);
  return last ? messageText(last) : '';
}
