import { type Checkpointer, StateGraph, type StateUpdate } from '@weft/compose';
import type { Agent } from '../agent/agent.js';
import type { AgentGraph } from '../agent/agent-graph.js';
import { type AgentState, agentReducers, agentStateSchema, RESET_DELTA } from '../agent/agent-state.js';
import { AdkError } from '../errors/adk-error.js';
import { eventId } from '../internal/event-id.js';
import { userMessage } from '../message/message-constructors.js';

/** Keeps the last value written (in task order), so parallel branches may write the same key. */
function lastWins<TValue>(_current: TValue, update: TValue): TValue {
  return update;
}

/**
 * The reducers of multi-agent graphs: {@link agentReducers}, plus last-write-wins for the agent's
 * bookkeeping keys, so sub-agents running in parallel (each resets its own counters) never conflict.
 * Writes are applied in task order (declaration order of the branches), so the later branch wins.
 *
 * @example
 * ```ts
 * new StateGraph(agentStateSchema, { reducers: multiAgentReducers });
 * ```
 */
export const multiAgentReducers = {
  ...agentReducers,
  iterations: lastWins<number>,
  output: lastWins<unknown>,
  finish: lastWins<AgentState['finish']>,
  transferTo: lastWins<string | undefined>,
  breakLoop: lastWins<boolean | undefined>,
  activeAgent: lastWins<string | undefined>,
  input: lastWins<AgentState['input']>,
} as const;

/**
 * An update of the agent state as multi-agent graph nodes write it (reducer keys take their updates).
 *
 * @example
 * ```ts
 * const update: AgentStateUpdate = { loops: { refine: 1 }, breakLoop: undefined };
 * ```
 */
export type AgentStateUpdate = StateUpdate<AgentState, typeof multiAgentReducers>;

/**
 * A state graph over the agent state whose node names are only known at run time.
 *
 * @example
 * ```ts
 * const graph: MultiAgentGraph = multiAgentGraph();
 * ```
 */
export type MultiAgentGraph = StateGraph<typeof agentStateSchema, typeof multiAgentReducers, string>;

/**
 * An empty multi-agent graph (agent state, {@link multiAgentReducers}).
 *
 * @example
 * ```ts
 * const graph = multiAgentGraph().addNode('enter', startTurn).addEdge(START, 'enter');
 * ```
 */
export function multiAgentGraph(): MultiAgentGraph {
  return new StateGraph(agentStateSchema, { reducers: multiAgentReducers }) as unknown as MultiAgentGraph;
}

/**
 * The update that starts a turn of a multi-agent graph: the new message joins the history and the
 * invocation's bookkeeping (state delta, loop counts, last action) is cleared. Without a new message
 * (the graph runs inside another agent's turn) nothing changes, so sub-agents keep the turn's delta.
 *
 * @example
 * ```ts
 * const graph = multiAgentGraph().addNode('enter', (state: AgentState) => startTurn(state));
 * ```
 */
export function startTurn(state: AgentState): AgentStateUpdate {
  if (state.input === undefined) return {};
  const message = typeof state.input === 'string' ? userMessage(state.input) : state.input;
  return {
    messages: [message.id === undefined ? { ...message, id: eventId('msg') } : message],
    input: undefined,
    stateDelta: RESET_DELTA,
    loops: RESET_DELTA,
    output: undefined,
    finish: undefined,
    transferTo: undefined,
    breakLoop: undefined,
  };
}

/**
 * Checks the sub-agents of a workflow or team: at least `min`, unique names, none named like one of
 * the container's own nodes.
 *
 * @throws AdkError `INVALID_ARGUMENT` naming every problem.
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const subAgents = [new ChatModelAgent({ name: 'writer', model: new ScriptedChatModel(['A draft.']) })];
 * checkSubAgents('pipeline', subAgents, ['enter'], 1); // throws for none, a duplicate, or one named 'enter'
 * ```
 */
export function checkSubAgents(
  owner: string,
  subAgents: readonly Agent[],
  reserved: readonly string[],
  min = 1,
): void {
  const problems: string[] = [];
  if (subAgents.length < min) problems.push(`it needs at least ${min} sub-agent(s)`);
  const seen = new Set<string>();
  for (const agent of subAgents) {
    if (seen.has(agent.name)) problems.push(`two sub-agents are named "${agent.name}"`);
    if (reserved.includes(agent.name))
      problems.push(`the name "${agent.name}" is taken by one of its own nodes (${reserved.join(', ')})`);
    seen.add(agent.name);
  }
  if (problems.length > 0)
    throw new AdkError('INVALID_ARGUMENT', `agent "${owner}": ${problems.join('; ')}; rename the sub-agents`);
}

/**
 * Compiles a multi-agent graph and types it as an agent graph.
 *
 * @example
 * ```ts
 * const graph = multiAgentGraph().addNode('start', startTurn).addEdge(START, 'start');
 * const compiled: AgentGraph = compileAgentGraph(graph, { name: 'pipeline' });
 * ```
 */
export function compileAgentGraph(
  graph: MultiAgentGraph,
  options: Parameters<MultiAgentGraph['compile']>[0],
): AgentGraph {
  // The builder's input type spells the reducers' update types; the agent graph type spells the state's.
  return graph.compile(options) as unknown as AgentGraph;
}

const agentName = /^[A-Za-z][\w-]{0,63}$/;

/**
 * Checks an agent's name: a letter, then letters, digits, `_` or `-` (at most 64).
 *
 * @throws AdkError `INVALID_ARGUMENT` for a bad name.
 * @example
 * ```ts
 * checkAgentName('research');
 * ```
 */
export function checkAgentName(name: string): void {
  if (!agentName.test(name)) {
    throw new AdkError(
      'INVALID_ARGUMENT',
      `agent name "${name}" must start with a letter and hold only letters, digits, "_" or "-" (≤ 64)`,
    );
  }
}

/**
 * Compiled graphs of one agent: one without a checkpointer, one per checkpointer (held weakly).
 *
 * @example
 * ```ts
 * const graphs = new AgentGraphCache();
 * const build = () => compileAgentGraph(multiAgentGraph().addNode('start', startTurn).addEdge(START, 'start'), {});
 * graphs.get(undefined, build) === graphs.get(undefined, build); // true: built once
 * ```
 */
export class AgentGraphCache {
  #plain: AgentGraph | undefined;
  readonly #byCheckpointer = new WeakMap<Checkpointer, AgentGraph>();

  /** The graph for `checkpointer`, built once. */
  get(
    checkpointer: Checkpointer | undefined,
    build: (checkpointer?: Checkpointer) => AgentGraph,
  ): AgentGraph {
    if (!checkpointer) return (this.#plain ??= build());
    const cached = this.#byCheckpointer.get(checkpointer);
    if (cached) return cached;
    const graph = build(checkpointer);
    this.#byCheckpointer.set(checkpointer, graph);
    return graph;
  }
}
