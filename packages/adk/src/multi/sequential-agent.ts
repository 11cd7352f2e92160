import { type Checkpointer, END, START } from '@weft/compose';
import type { Agent } from '../agent/agent.js';
import type { AgentGraph } from '../agent/agent-graph.js';
import { graphAgentInfo } from '../agent/graph-agent-info.js';
import { WorkflowAgent, type WorkflowAgentOptions } from './workflow-agent.js';
import { compileAgentGraph, multiAgentGraph, startTurn } from './workflow-graph.js';

/**
 * Options of a {@link SequentialAgent}.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const researcher = new ChatModelAgent({ name: 'researcher', model: new ScriptedChatModel(['Facts: …']) });
 * const writer = new ChatModelAgent({ name: 'writer', model: new ScriptedChatModel(['A draft.']) });
 * const options: SequentialAgentOptions = { name: 'pipeline', subAgents: [researcher, writer] };
 * ```
 */
export interface SequentialAgentOptions<
  TName extends string = string,
  TSubAgents extends readonly Agent[] = readonly Agent[],
> extends WorkflowAgentOptions<TName, TSubAgents> {
  /** Run one after the other, in this order. */
  readonly subAgents: TSubAgents;
}

/**
 * Runs its sub-agents one after the other over one conversation, compiled to the graph
 * `enter → a → b → … → END` whose nodes are the sub-agents' own graphs (so the drawing expands each).
 * Sub-agents pass data through session state (`outputKey` of one, `{key}` in the next one's
 * instruction) and see each other's replies as context. An `exit` action of a sub-agent ends the
 * sequence.
 *
 * @throws AdkError `INVALID_ARGUMENT` for a bad name, no sub-agents or duplicate sub-agent names.
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const researcher = new ChatModelAgent({ name: 'researcher', model: new ScriptedChatModel(['Facts: …']) });
 * const writer = new ChatModelAgent({ name: 'writer', model: new ScriptedChatModel(['A draft.']) });
 * const editor = new ChatModelAgent({ name: 'editor', model: new ScriptedChatModel(['The final text.']) });
 * const pipeline = new SequentialAgent({ name: 'pipeline', subAgents: [researcher, writer, editor] });
 * const runner = new Runner({ agent: pipeline, sessionService: new MemorySessionService() });
 * ```
 */
export class SequentialAgent<
  const TName extends string = string,
  TSubAgents extends readonly Agent[] = readonly Agent[],
> extends WorkflowAgent<TName, TSubAgents> {
  constructor(options: SequentialAgentOptions<TName, TSubAgents>) {
    super(options, ['enter']);
  }

  protected build(checkpointer?: Checkpointer): AgentGraph {
    const names = this.subAgents.map((agent) => agent.name);
    const graph = multiAgentGraph().addNode('enter', (state) => startTurn(state));
    for (const agent of this.subAgents) graph.addNode(agent.name, agent.compile());
    graph.addEdge(START, 'enter').addEdge('enter', names[0] as string);
    names.forEach((name, i) => {
      const next = names[i + 1];
      if (next === undefined) graph.addEdge(name, END);
      else graph.addConditionalEdges(name, (state) => (state.finish === 'exit' ? END : next), [next, END]);
    });
    return compileAgentGraph(graph, {
      name: this.name,
      agent: graphAgentInfo(this),
      maxSteps: names.length + 2,
      ...(checkpointer ? { checkpointer } : {}),
    });
  }
}
