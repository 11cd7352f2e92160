import { type Checkpointer, Command, END, START } from '@weft/compose';
import type { Agent } from '../agent/agent.js';
import type { AgentGraph } from '../agent/agent-graph.js';
import type { AgentState } from '../agent/agent-state.js';
import { graphAgentInfo } from '../agent/graph-agent-info.js';
import { AdkError } from '../errors/adk-error.js';
import { WorkflowAgent, type WorkflowAgentOptions } from './workflow-agent.js';
import { type AgentStateUpdate, compileAgentGraph, multiAgentGraph, startTurn } from './workflow-graph.js';

/**
 * Options of a {@link LoopAgent}.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const writer = new ChatModelAgent({ name: 'writer', model: new ScriptedChatModel(['A first draft.']) });
 * const critic = new ChatModelAgent({ name: 'critic', model: new ScriptedChatModel(['Tighten the intro.']) });
 * const options: LoopAgentOptions = { name: 'refine', subAgents: [writer, critic], maxIterations: 3 };
 * ```
 */
export interface LoopAgentOptions<
  TName extends string = string,
  TSubAgents extends readonly Agent[] = readonly Agent[],
> extends WorkflowAgentOptions<TName, TSubAgents> {
  /** The loop body: run in order, again and again. */
  readonly subAgents: TSubAgents;
  /** Iterations at most (default: until a sub-agent breaks the loop). */
  readonly maxIterations?: number;
}

/**
 * Runs its sub-agents in order, again and again, compiled to the graph
 * `enter → a → b → … → check → (a | END)` whose body nodes are the sub-agents' own graphs. The loop ends
 * after `maxIterations`, when a sub-agent breaks it (the `exit_loop` tool, `exitLoopTool()`: the rest of
 * that iteration is skipped), on an `exit` action (which also ends enclosing agents) or on an error.
 * `check` consumes the break, so it ends only this loop, not enclosing ones. Iterations are counted in
 * the state's `loops[name]`.
 *
 * @throws AdkError `INVALID_ARGUMENT` for a bad name, no sub-agents, duplicate names or a bad
 *   `maxIterations`.
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const writer = new ChatModelAgent({ name: 'writer', model: new ScriptedChatModel(['A first draft.']) });
 * const model = new ScriptedChatModel([{ toolCalls: [{ name: 'exit_loop', arguments: {} }] }]); // approves at once
 * const critic = new ChatModelAgent({ name: 'critic', model, tools: [exitLoopTool()] });
 * const refine = new LoopAgent({ name: 'refine', subAgents: [writer, critic], maxIterations: 5 });
 * ```
 */
export class LoopAgent<
  const TName extends string = string,
  TSubAgents extends readonly Agent[] = readonly Agent[],
> extends WorkflowAgent<TName, TSubAgents> {
  readonly maxIterations: number | undefined;

  constructor(options: LoopAgentOptions<TName, TSubAgents>) {
    super(options, ['enter', 'check']);
    const max = options.maxIterations;
    if (max !== undefined && !(Number.isInteger(max) && max > 0)) {
      throw new AdkError(
        'INVALID_ARGUMENT',
        `agent "${options.name}": maxIterations must be a positive integer, got ${max}`,
      );
    }
    this.maxIterations = max;
  }

  protected build(checkpointer?: Checkpointer): AgentGraph {
    const names = this.subAgents.map((agent) => agent.name);
    const first = names[0] as string;
    const graph = multiAgentGraph()
      .addNode('enter', (state) => this.#enter(state))
      .addNode('check', (state) => this.#check(state, first), { goto: [first, END] });
    for (const agent of this.subAgents) graph.addNode(agent.name, agent.compile());
    graph.addEdge(START, 'enter').addEdge('enter', first);
    names.forEach((name, i) => {
      const next = names[i + 1] ?? 'check';
      if (next === 'check') graph.addEdge(name, 'check');
      else graph.addConditionalEdges(name, (s) => (stops(s) ? 'check' : next), [next, 'check']);
    });
    const perIteration = names.length + 1;
    return compileAgentGraph(graph, {
      name: this.name,
      agent: graphAgentInfo(this),
      maxSteps: this.maxIterations === undefined ? 10_000 : this.maxIterations * perIteration + 2,
      ...(checkpointer ? { checkpointer } : {}),
    });
  }

  #enter(state: AgentState): AgentStateUpdate {
    const start = startTurn(state);
    return { ...start, loops: { ...start.loops, [this.name]: 0 }, breakLoop: undefined };
  }

  #check(state: AgentState, first: string): Command<AgentStateUpdate, string> {
    if (state.finish === 'exit') return new Command({ goto: END });
    const count = (state.loops[this.name] ?? 0) + 1;
    const broke = state.breakLoop === true;
    const update: AgentStateUpdate = {
      loops: { [this.name]: count },
      ...(broke ? { breakLoop: undefined, finish: undefined } : {}),
    };
    const done = broke || (this.maxIterations !== undefined && count >= this.maxIterations);
    return new Command({ update, goto: done ? END : first });
  }
}

/** A sub-agent broke the loop or exited: skip the rest of the iteration. */
function stops(state: AgentState): boolean {
  return state.breakLoop === true || state.finish === 'exit';
}
