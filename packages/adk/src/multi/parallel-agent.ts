import { type Checkpointer, END, type NodeContext, START } from '@weft/compose';
import type { Agent } from '../agent/agent.js';
import { reportAgentEvent } from '../agent/agent-context.js';
import type { AgentGraph } from '../agent/agent-graph.js';
import type { AgentState } from '../agent/agent-state.js';
import { graphAgentInfo } from '../agent/graph-agent-info.js';
import { WorkflowAgent, type WorkflowAgentOptions } from './workflow-agent.js';
import { compileAgentGraph, multiAgentGraph, startTurn } from './workflow-graph.js';

/**
 * Options of a {@link ParallelAgent}.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const web = new ChatModelAgent({ name: 'web', model: new ScriptedChatModel(['From the web: …']) });
 * const papers = new ChatModelAgent({ name: 'papers', model: new ScriptedChatModel(['From papers: …']) });
 * const options: ParallelAgentOptions = { name: 'research', subAgents: [web, papers], maxConcurrency: 2 };
 * ```
 */
export interface ParallelAgentOptions<
  TName extends string = string,
  TSubAgents extends readonly Agent[] = readonly Agent[],
> extends WorkflowAgentOptions<TName, TSubAgents> {
  /** The branches, all started from the same conversation. */
  readonly subAgents: TSubAgents;
  /** Branches running at once (default: all); the rest wait for a free slot. */
  readonly maxConcurrency?: number;
}

/**
 * Runs its sub-agents as parallel branches of one superstep, compiled to the graph
 * `enter → (a | b | …) → merge → END` whose branch nodes are the sub-agents' own graphs. Each branch
 * sees the conversation up to the fan-out plus its own messages (not the other branches'); events carry
 * the branch path (`research.web`). After the fan-in, histories are joined in declaration order and
 * session writes merge deterministically: of two branches writing one key, the later one in
 * declaration order wins — `merge` re-commits the merged state delta, so the session matches the graph
 * whatever order the branches finished in. Each branch's `outputKey` lands under its own key.
 *
 * @throws AdkError `INVALID_ARGUMENT` for a bad name, no sub-agents, duplicate names or a bad
 *   `maxConcurrency`.
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const web = new ChatModelAgent({ name: 'web', model: new ScriptedChatModel(['From the web: …']) });
 * const papers = new ChatModelAgent({ name: 'papers', model: new ScriptedChatModel(['From papers: …']) });
 * const news = new ChatModelAgent({ name: 'news', model: new ScriptedChatModel(['In the news: …']) });
 * const summarizer = new ChatModelAgent({ name: 'summarizer', model: new ScriptedChatModel(['In short: …']) });
 * const research = new ParallelAgent({ name: 'research', subAgents: [web, papers, news], maxConcurrency: 2 });
 * const pipeline = new SequentialAgent({ name: 'report', subAgents: [research, summarizer] });
 * ```
 */
export class ParallelAgent<
  const TName extends string = string,
  TSubAgents extends readonly Agent[] = readonly Agent[],
> extends WorkflowAgent<TName, TSubAgents> {
  readonly maxConcurrency: number | undefined;

  constructor(options: ParallelAgentOptions<TName, TSubAgents>) {
    super(options, ['enter', 'merge']);
    this.maxConcurrency = options.maxConcurrency;
    // Validated now rather than at the first compile: compile() reports it as a graph issue too.
    compileAgentGraph(this.#graph(), { name: this.name, ...this.#concurrency() });
  }

  protected build(checkpointer?: Checkpointer): AgentGraph {
    return compileAgentGraph(this.#graph(), {
      name: this.name,
      agent: graphAgentInfo(this),
      maxSteps: 4,
      ...this.#concurrency(),
      ...(checkpointer ? { checkpointer } : {}),
    });
  }

  #concurrency(): { concurrency?: number } {
    return this.maxConcurrency === undefined ? {} : { concurrency: this.maxConcurrency };
  }

  #graph() {
    const names = this.subAgents.map((agent) => agent.name);
    const graph = multiAgentGraph()
      .addNode('enter', (state) => startTurn(state))
      .addNode('merge', mergeNode(this.name));
    for (const agent of this.subAgents) graph.addNode(agent.name, agent.compile());
    graph.addEdge(START, 'enter');
    for (const name of names) graph.addEdge('enter', name);
    return graph.addEdge(names, 'merge').addEdge('merge', END);
  }
}

/** Commits the merged state delta after the fan-in, so the session agrees with the deterministic merge. */
function mergeNode(author: string) {
  return async (state: AgentState, ctx: NodeContext) => {
    if (Object.keys(state.stateDelta).length === 0) return undefined;
    await reportAgentEvent(ctx, { author, actions: { stateDelta: state.stateDelta } });
    return undefined;
  };
}
