import { AdkError, type Agent, type AgentGraph, assistantMessage, type Message } from '@weft/adk';
import {
  AgentGraphCache,
  type AgentState,
  checkAgentName,
  multiAgentGraph,
  reportAgentEvent,
  startTurn,
} from '@weft/adk/agent-graph';
import { type Checkpointer, END, type NodeContext, START } from '@weft/compose';

import { readExecutedSteps, readPlan } from './plan-state.js';
import { PLAN_TOOL, RESPOND_TOOL } from './plan-tools.js';

/**
 * Options of a {@link PlanExecuteAgent}.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel
 * const planner = new ChatModelAgent({ name: 'planner', model });
 * const executor = new ChatModelAgent({ name: 'executor', model });
 * const replanner = new ChatModelAgent({ name: 'replanner', model });
 * const options: PlanExecuteAgentOptions = { name: 'plan_execute', planner, executor, replanner, maxIterations: 5 };
 * ```
 */
export interface PlanExecuteAgentOptions {
  readonly name: string;
  readonly description?: string;
  /** Writes the plan (a `plan` tool that starts it, see `planTool`). */
  readonly planner: Agent;
  /** Does the open step (records it when done, see `recordExecutedStep`). */
  readonly executor: Agent;
  /** Calls `respond` (the answer) or `plan` (the steps still to do). */
  readonly replanner: Agent;
  /** Executor runs per invocation (default 10). */
  readonly maxIterations?: number;
}

/**
 * Plan-execute-replan as one compiled graph: `enter → planner → executor → replanner → (executor |
 * answer | END)`. The planner writes a plan; while the replanner revises it with `plan`, the executor
 * does the next open step; when the replanner calls `respond`, `answer` posts the response as the
 * agent's reply (an assistant message by this agent, so later turns see it) and the run ends. It also
 * ends when the planner made no plan, after `maxIterations` executor runs, or when the replanner
 * answers without a tool (its reply is the answer). The steps travel in session state (`PLAN_KEY`,
 * `EXECUTED_STEPS_KEY`), so every change is an event the Runner commits.
 *
 * @throws AdkError `INVALID_ARGUMENT` for a bad name, duplicate role names or a bad `maxIterations`.
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel
 * const planner = new ChatModelAgent({ name: 'planner', model });
 * const executor = new ChatModelAgent({ name: 'executor', model });
 * const replanner = new ChatModelAgent({ name: 'replanner', model });
 * const agent = new PlanExecuteAgent({ name: 'plan_execute', planner, executor, replanner, maxIterations: 5 });
 * // createPlanExecute({ planner: { model }, executor: { model }, replanner: { model } }) builds the same with the default prompts and tools
 * ```
 */
export class PlanExecuteAgent implements Agent {
  readonly name: string;
  readonly description: string;
  readonly subAgents: readonly Agent[];
  readonly maxIterations: number;
  readonly #roles: { readonly planner: Agent; readonly executor: Agent; readonly replanner: Agent };
  readonly #graphs = new AgentGraphCache();

  constructor(options: PlanExecuteAgentOptions) {
    checkAgentName(options.name);
    const { planner, executor, replanner } = options;
    const names = [planner.name, executor.name, replanner.name];
    if (new Set([...names, 'enter', 'answer']).size !== 5)
      throw new AdkError(
        'INVALID_ARGUMENT',
        `plan-execute "${options.name}": planner, executor and replanner need distinct names other than "enter" and "answer" (got ${names.join(', ')})`,
      );
    const max = options.maxIterations ?? 10;
    if (!(Number.isInteger(max) && max > 0))
      throw new AdkError(
        'INVALID_ARGUMENT',
        `plan-execute "${options.name}": maxIterations must be a positive integer`,
      );
    this.name = options.name;
    this.description = options.description ?? '';
    this.subAgents = [planner, executor, replanner];
    this.maxIterations = max;
    this.#roles = { planner, executor, replanner };
  }

  /** Compiles the plan-execute graph (cached per checkpointer). */
  compile(options: { readonly checkpointer?: Checkpointer } = {}): AgentGraph {
    return this.#graphs.get(options.checkpointer, (checkpointer) => this.#build(checkpointer));
  }

  #build(checkpointer?: Checkpointer): AgentGraph {
    const { planner, executor, replanner } = this.#roles;
    const graph = multiAgentGraph()
      .addNode('enter', (state) => startTurn(state))
      .addNode(planner.name, planner.compile())
      .addNode(executor.name, executor.compile())
      .addNode(replanner.name, replanner.compile())
      .addNode('answer', answerNode(this.name))
      .addEdge(START, 'enter')
      .addEdge('enter', planner.name)
      .addConditionalEdges(planner.name, (s) => (readPlan(delta(s)).length > 0 ? executor.name : END), [
        executor.name,
        END,
      ])
      .addEdge(executor.name, replanner.name)
      .addConditionalEdges(replanner.name, (s) => this.#afterReplanner(s), [executor.name, 'answer', END])
      .addEdge('answer', END)
      .compile({
        name: this.name,
        maxSteps: this.maxIterations * 2 + 4,
        ...(checkpointer ? { checkpointer } : {}),
      });
    // The builder's input type spells the reducers' update types; the agent graph type spells the state's.
    return graph as unknown as AgentGraph;
  }

  #afterReplanner(state: AgentState): string {
    const last = lastMessage(state.messages, this.#roles.replanner.name);
    if (last?.role !== 'tool' || last.status === 'error') return END;
    if (last.name === RESPOND_TOOL) return 'answer';
    const open = readPlan(delta(state)).length > 0;
    const done = readExecutedSteps(delta(state)).length;
    return last.name === PLAN_TOOL && open && done < this.maxIterations ? this.#roles.executor.name : END;
  }
}

/** `answer`: posts the replanner's response as this agent's reply. */
function answerNode(author: string) {
  return async (state: AgentState, ctx: NodeContext): Promise<Partial<AgentState>> => {
    const response = typeof state.output === 'string' ? state.output : JSON.stringify(state.output);
    const message = { ...assistantMessage(response, { id: `answer-${ctx.runId}-${ctx.step}` }), author };
    await reportAgentEvent(ctx, { author, message, actions: {} });
    return { messages: [message], output: response, activeAgent: author };
  };
}

/** This invocation's session writes, readable like session state. */
function delta(state: AgentState): { get(key: string): unknown } {
  return { get: (key) => state.stateDelta[key] };
}

function lastMessage(messages: readonly Message[], author: string): Message | undefined {
  const last = messages.at(-1);
  return last?.author === author ? last : undefined;
}
