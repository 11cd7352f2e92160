import { type AgentMiddleware, type AnyTool, tool } from '@weft/adk';
import { z } from 'zod';
import {
  EXECUTED_STEPS_KEY,
  formatSteps,
  latestUserText,
  PLAN_INPUT_KEY,
  PLAN_KEY,
  planSchema,
  readExecutedSteps,
  readPlan,
} from './plan-state.js';

/**
 * The name of the tool the planner and the replanner write the plan with.
 *
 * @example
 * ```ts
 * planTool({ starts: true }).name === PLAN_TOOL; // true
 * const reply = assistantMessage('', { toolCalls: [{ id: 'c1', name: 'plan', arguments: JSON.stringify({ steps: ['Search'] }) }] });
 * const planned = reply.toolCalls?.some((call) => call.name === PLAN_TOOL); // true
 * ```
 */
export const PLAN_TOOL = 'plan';
/**
 * The name of the tool the replanner ends the plan with, giving the answer.
 *
 * @example
 * ```ts
 * respondTool().name === RESPOND_TOOL; // true
 * const reply = assistantMessage('', { toolCalls: [{ id: 'c1', name: 'respond', arguments: JSON.stringify({ response: '42' }) }] });
 * const answered = reply.toolCalls?.some((call) => call.name === RESPOND_TOOL); // true
 * ```
 */
export const RESPOND_TOOL = 'respond';

/**
 * The `plan({ steps })` tool: stores the steps still to do under `PLAN_KEY` and ends the agent
 * (return-directly). With `starts`, it is the planner's: it also records the request under
 * `PLAN_INPUT_KEY` and clears the executed steps.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel
 * const planner = new ChatModelAgent({ name: 'planner', model, tools: [planTool({ starts: true })] });
 * ```
 */
export function planTool(options: { readonly starts: boolean }): AnyTool {
  return tool({
    name: PLAN_TOOL,
    description: options.starts
      ? 'Write the plan: the steps to reach the objective, in order.'
      : 'Replace the steps still to do (only those not done yet), revised as the results call for.',
    parameters: planSchema,
    returnDirectly: true,
    execute: ({ steps }, ctx) => {
      if (options.starts) {
        ctx.state.set(PLAN_INPUT_KEY, latestUserText(ctx.messages ?? []));
        ctx.state.set(EXECUTED_STEPS_KEY, []);
      }
      ctx.state.set(PLAN_KEY, steps);
      return `Plan:\n${formatSteps(steps)}`;
    },
  });
}

/**
 * The `respond({ response })` tool of the replanner: the objective is met; ends the plan with the answer
 * for the user (return-directly).
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel
 * const replanner = new ChatModelAgent({ name: 'replanner', model, tools: [planTool({ starts: false }), respondTool()] });
 * ```
 */
export function respondTool(): AnyTool {
  return tool({
    name: RESPOND_TOOL,
    description: 'The objective is met: give the final answer for the user. This ends the plan.',
    parameters: z.object({ response: z.string().min(1).describe('The answer for the user') }),
    returnDirectly: true,
    execute: ({ response }) => response,
  });
}

/**
 * The executor's bookkeeping: when it finishes, its output is recorded as the result of the open step
 * (appended to `EXECUTED_STEPS_KEY`) and that step leaves `PLAN_KEY` — committed with the executor's
 * final event, before the replanner runs.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel
 * const search = tool({
 *   name: 'search',
 *   description: 'Searches the web',
 *   parameters: z.object({ query: z.string() }),
 *   execute: ({ query }) => `results for ${query}`,
 * });
 * const executor = new ChatModelAgent({ name: 'executor', model, tools: [search], middleware: [recordExecutedStep()] });
 * // after each run, the step and the executor's answer are appended under EXECUTED_STEPS_KEY
 * ```
 */
export function recordExecutedStep(): AgentMiddleware {
  return {
    name: 'record-executed-step',
    afterAgent: (ctx, output) => {
      const [step, ...rest] = readPlan(ctx.session);
      if (step === undefined) return;
      const result = typeof output === 'string' ? output : JSON.stringify(output ?? null);
      ctx.session.set(EXECUTED_STEPS_KEY, [...readExecutedSteps(ctx.session), { step, result }]);
      ctx.session.set(PLAN_KEY, rest);
    },
  };
}
