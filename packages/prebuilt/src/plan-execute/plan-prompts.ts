import type { InstructionContext } from '@weft/adk';
import {
  formatExecutedSteps,
  formatSteps,
  PLAN_INPUT_KEY,
  readExecutedSteps,
  readPlan,
} from './plan-state.js';

/**
 * The prompts of a plan-execute agent. Placeholders, filled from session state on every model call:
 * `{input}` the request, `{plan}` the steps still to do (numbered), `{step}` the open step, `{executed}`
 * the steps done with their results.
 *
 * @example
 * ```ts
 * const prompts: PlanExecutePrompts = { ...PLAN_EXECUTE_PROMPTS, executor: 'Do: {step}' };
 * ```
 */
export interface PlanExecutePrompts {
  readonly planner: string;
  readonly executor: string;
  readonly replanner: string;
}

/**
 * The planner's default prompt.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel
 * createPlanExecute({
 *   planner: { model },
 *   executor: { model },
 *   replanner: { model },
 *   prompts: { planner: `${PLANNER_PROMPT}\nBe brief.` },
 * });
 * ```
 */
export const PLANNER_PROMPT =
  'For the user’s objective, make a simple step-by-step plan and call the plan tool with it. Each step is an individual task that, done well, brings the answer; do not add superfluous steps. Give each step the information it needs. The last step’s result should be the answer.';

/**
 * The executor's default prompt.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel
 * createPlanExecute({
 *   planner: { model },
 *   executor: { model },
 *   replanner: { model },
 *   prompts: { executor: `${EXECUTOR_PROMPT}\nBe brief.` },
 * });
 * ```
 */
export const EXECUTOR_PROMPT =
  'You carry out one step of a plan, using your tools.\n\nObjective: {input}\n\nPlan:\n{plan}\n\nDone so far:\n{executed}\n\nDo only this step now, and reply with its result: {step}';

/**
 * The replanner's default prompt.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel
 * createPlanExecute({
 *   planner: { model },
 *   executor: { model },
 *   replanner: { model },
 *   prompts: { replanner: `${REPLANNER_PROMPT}\nBe brief.` },
 * });
 * ```
 */
export const REPLANNER_PROMPT =
  'You keep a plan on track.\n\nObjective: {input}\n\nDone so far:\n{executed}\n\nSteps still to do:\n{plan}\n\nIf the results answer the objective, call respond with the answer for the user. Otherwise call plan with the steps still to do (only those, not the done ones), revised as the results call for.';

/**
 * The default prompts of `createPlanExecute`.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel, e.g. new OpenAIChatModel({ model: 'gpt-4o-mini' })
 * const [planner, executor, replanner] = [{ model }, { model, tools: [] }, { model }];
 * createPlanExecute({ planner, executor, replanner, prompts: { ...PLAN_EXECUTE_PROMPTS, planner: 'Plan in 2 steps.' } });
 * ```
 */
export const PLAN_EXECUTE_PROMPTS: PlanExecutePrompts = {
  planner: PLANNER_PROMPT,
  executor: EXECUTOR_PROMPT,
  replanner: REPLANNER_PROMPT,
};

/**
 * An instruction that fills a plan-execute prompt's placeholders from session state.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel
 * new ChatModelAgent({ name: 'executor', model, instruction: planPrompt(EXECUTOR_PROMPT) });
 * // {input}, {plan}, {executed} and {step} are filled from the session state for each model call
 * ```
 */
export function planPrompt(template: string): (context: InstructionContext) => string {
  return ({ state }) => {
    const session = { get: (key: string) => state[key] };
    const plan = readPlan(session);
    const values: Record<string, string> = {
      input: String(state[PLAN_INPUT_KEY] ?? ''),
      plan: formatSteps(plan),
      step: plan[0] ?? '(none)',
      executed: formatExecutedSteps(readExecutedSteps(session)),
    };
    return template.replace(/\{(input|plan|step|executed)\}/g, (_match, key: string) => values[key] ?? '');
  };
}
