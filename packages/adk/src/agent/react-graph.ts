import { type Checkpointer, END, START, StateGraph } from '@weft/compose';
import { AgentTool } from '../multi/agent-tool.js';
import type { AgentGraph, AgentNode } from './agent-graph.js';
import { agentReducers, agentStateSchema } from './agent-state.js';
import { agentToolsNode, wantsTools } from './agent-tools-node.js';
import { graphAgentInfo } from './graph-agent-info.js';
import { afterAgentNode, afterInit, initNode, safePointNode } from './lifecycle-nodes.js';
import { modelNode } from './model-node.js';
import { OfferedTools } from './offered-tools.js';
import type { ResolvedAgent } from './resolved-agent.js';

/**
 * Builds and compiles the ReAct graph of an agent:
 * `init → model → (tool calls?) → cancelAfterModel → tools → cancelAfterTools → model`, with exits to
 * `afterAgent` when the model answers or a tool ends the agent (exit, return-directly, transfer, loop
 * break).
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const agent = new ChatModelAgent({ name: 'helper', model: new ScriptedChatModel(['Hi!']) });
 * const graph = buildReactGraph(agent.options); // init → model ⇄ tools → afterAgent
 * ```
 */
export function buildReactGraph(agent: ResolvedAgent, checkpointer?: Checkpointer): AgentGraph<AgentNode> {
  // The tools each model call was offered are the tools its reply's calls may run.
  const offered = new OfferedTools(agent.tools);
  const graph = new StateGraph(agentStateSchema, { reducers: agentReducers })
    .addNode('init', initNode(agent))
    .addNode('model', modelNode(agent, offered), { kind: 'model' })
    .addNode('cancelAfterModel', safePointNode('afterModel'))
    .addNode('tools', agentToolsNode(agent, offered), { kind: 'tools', ...agentToolsMetadata(agent) })
    .addNode('cancelAfterTools', safePointNode('afterTools'))
    .addNode('afterAgent', afterAgentNode(agent))
    .addEdge(START, 'init')
    .addConditionalEdges('init', afterInit, ['model', 'afterAgent'])
    .addConditionalEdges('model', (s) => (wantsTools(s.messages) ? 'cancelAfterModel' : 'afterAgent'), [
      'cancelAfterModel',
      'afterAgent',
    ])
    .addEdge('cancelAfterModel', 'tools')
    .addConditionalEdges('tools', (s) => (s.finish ? 'afterAgent' : 'cancelAfterTools'), [
      'afterAgent',
      'cancelAfterTools',
    ])
    .addEdge('cancelAfterTools', 'model')
    .addEdge('afterAgent', END)
    .compile({
      name: agent.name,
      agent: graphAgentInfo(agent, agent.model),
      maxSteps: agent.maxIterations * 4 + 8,
      ...(checkpointer ? { checkpointer } : {}),
    });
  return graph as unknown as AgentGraph<AgentNode>;
}

/**
 * The `tools` node's metadata, for tools like the playground: the agent's tools (`tools`: name,
 * description, and where each comes from — `agent` for an agent used as a tool, `mcp:<server>` for an
 * MCP server's), and the graphs of the agents used as tools (`agentTools`), so they can be expanded.
 */
function agentToolsMetadata(agent: ResolvedAgent): { metadata?: Record<string, unknown> } {
  if (agent.tools.length === 0) return {};
  const tools = agent.tools.map((t) => {
    const source = t instanceof AgentTool ? 'agent' : t.source;
    return { name: t.name, description: t.description, ...(source === undefined ? {} : { source }) };
  });
  const agentTools = agent.tools.filter((t): t is AgentTool => t instanceof AgentTool);
  return {
    metadata: {
      tools,
      ...(agentTools.length === 0
        ? {}
        : { agentTools: Object.fromEntries(agentTools.map((t) => [t.name, t.agent.compile().toJSON()])) }),
    },
  };
}
