import { type Checkpointer, END, START, StateGraph } from '@weft/compose';
import { AgentTool } from '../multi/agent-tool.js';
import { agentReducers, agentStateSchema } from './agent-state.js';
import { agentToolsNode, wantsTools } from './agent-tools-node.js';
import type { AgentGraph, AgentNode } from './chat-model-agent.js';
import { afterAgentNode, initNode, safePointNode } from './lifecycle-nodes.js';
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
 * const graph = buildReactGraph(agent.options);
 * ```
 */
export function buildReactGraph(agent: ResolvedAgent, checkpointer?: Checkpointer): AgentGraph<AgentNode> {
  // The tools each model call was offered are the tools its reply's calls may run.
  const offered = new OfferedTools(agent.tools);
  const graph = new StateGraph(agentStateSchema, { reducers: agentReducers })
    .addNode('init', initNode(agent))
    .addNode('model', modelNode(agent, offered))
    .addNode('cancelAfterModel', safePointNode('afterModel'))
    .addNode('tools', agentToolsNode(agent, offered), agentToolsMetadata(agent))
    .addNode('cancelAfterTools', safePointNode('afterTools'))
    .addNode('afterAgent', afterAgentNode(agent))
    .addEdge(START, 'init')
    .addEdge('init', 'model')
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
      maxSteps: agent.maxIterations * 4 + 8,
      ...(checkpointer ? { checkpointer } : {}),
    });
  return graph as unknown as AgentGraph<AgentNode>;
}

/** Draws the agents used as tools into the `tools` node's metadata, so tools like the playground can expand them. */
function agentToolsMetadata(agent: ResolvedAgent): { metadata?: Record<string, unknown> } {
  const agentTools = agent.tools.filter((t): t is AgentTool => t instanceof AgentTool);
  if (agentTools.length === 0) return {};
  return {
    metadata: { agentTools: Object.fromEntries(agentTools.map((t) => [t.name, t.agent.compile().toJSON()])) },
  };
}
