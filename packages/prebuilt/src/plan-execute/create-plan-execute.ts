import { type AgentRoleOptions, roleAgent } from '../multi/role-options.js';
import { PlanExecuteAgent } from './plan-execute-agent.js';
import { PLAN_EXECUTE_PROMPTS, type PlanExecutePrompts, planPrompt } from './plan-prompts.js';
import { planTool, recordExecutedStep, respondTool } from './plan-tools.js';

/**
 * A role of a plan-execute agent: its prompt comes from `prompts` (with the plan's placeholders).
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel, e.g. new OpenAIChatModel({ model: 'gpt-4o-mini' })
 * const search = tool({
 *   name: 'search',
 *   description: 'Searches the web',
 *   parameters: z.object({ query: z.string() }),
 *   execute: ({ query }) => `results for ${query}`,
 * });
 * const executor: PlanExecuteRole = { model, tools: [search], maxIterations: 8 };
 * ```
 */
export type PlanExecuteRole = Omit<AgentRoleOptions, 'instruction'>;

/**
 * Options of {@link createPlanExecute}.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel, e.g. new OpenAIChatModel({ model: 'gpt-4o-mini' })
 * const search = tool({
 *   name: 'search',
 *   description: 'Searches the web',
 *   parameters: z.object({ query: z.string() }),
 *   execute: ({ query }) => `results for ${query}`,
 * });
 * const tools = [search];
 * const options: PlanExecuteOptions = { planner: { model }, executor: { model, tools }, replanner: { model } };
 * ```
 */
export interface PlanExecuteOptions {
  /** Default `plan_execute`. */
  readonly name?: string;
  readonly description?: string;
  /** Writes the plan with the `plan` tool (default name `planner`). */
  readonly planner: PlanExecuteRole;
  /** Does the open step with its tools (default name `executor`). */
  readonly executor: PlanExecuteRole;
  /** Calls `respond` or `plan` after each step (default name `replanner`). */
  readonly replanner: PlanExecuteRole;
  /** Executor runs per invocation (default 10). */
  readonly maxIterations?: number;
  /** Replaces some of {@link PLAN_EXECUTE_PROMPTS}. */
  readonly prompts?: Partial<PlanExecutePrompts>;
}

/**
 * A plan-execute-replan agent: the planner writes a plan (a zod-typed list of steps, through the `plan`
 * tool), then the executor and the replanner loop — the executor does the first open step with its
 * tools (its result is recorded as an executed step), the replanner either calls `respond` (the loop
 * ends with the answer) or `plan` (the revised steps still to do). The request, the plan and the
 * executed steps are session state (`PLAN_INPUT_KEY`, `PLAN_KEY`, `EXECUTED_STEPS_KEY`); the planner
 * and the replanner must call a tool (`toolChoice: 'required'`). Compiles to one graph, see
 * {@link PlanExecuteAgent}.
 *
 * @throws AdkError `INVALID_ARGUMENT` for bad or duplicate names, or a bad `maxIterations`.
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel, e.g. new OpenAIChatModel({ model: 'gpt-4o-mini' })
 * const search = tool({
 *   name: 'search',
 *   description: 'Searches the web',
 *   parameters: z.object({ query: z.string() }),
 *   execute: ({ query }) => `results for ${query}`,
 * });
 * const calculator = tool({
 *   name: 'calculator',
 *   description: 'Adds two numbers',
 *   parameters: z.object({ a: z.number(), b: z.number() }),
 *   execute: ({ a, b }) => a + b,
 * });
 * const agent = createPlanExecute({
 *   planner: { model },
 *   executor: { model, tools: [search, calculator] },
 *   replanner: { model },
 *   maxIterations: 6,
 * });
 * const runner = new Runner({ agent, sessionService: new MemorySessionService() });
 * ```
 */
export function createPlanExecute(options: PlanExecuteOptions): PlanExecuteAgent {
  const prompts = { ...PLAN_EXECUTE_PROMPTS, ...options.prompts };
  const mustCallTool = { modelOptions: { toolChoice: 'required' as const } };
  const planner = roleAgent(options.planner, {
    name: 'planner',
    instruction: planPrompt(prompts.planner),
    tools: [planTool({ starts: true })],
    options: mustCallTool,
  });
  const executor = roleAgent(options.executor, {
    name: 'executor',
    instruction: planPrompt(prompts.executor),
    middleware: [recordExecutedStep()],
  });
  const replanner = roleAgent(options.replanner, {
    name: 'replanner',
    instruction: planPrompt(prompts.replanner),
    tools: [planTool({ starts: false }), respondTool()],
    options: mustCallTool,
  });
  return new PlanExecuteAgent({
    name: options.name ?? 'plan_execute',
    planner,
    executor,
    replanner,
    ...(options.description === undefined ? {} : { description: options.description }),
    ...(options.maxIterations === undefined ? {} : { maxIterations: options.maxIterations }),
  });
}
