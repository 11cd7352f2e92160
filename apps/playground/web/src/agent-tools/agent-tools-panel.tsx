import type { Topology } from '../../../src/shared/wire.ts';
import { agentToolLists } from './tools-model.ts';

/** The tools of every agent of the graph (MCP servers' tools marked with their server). */
export function AgentToolsPanel(props: { readonly topology: Topology }) {
  const agents = agentToolLists(props.topology);
  if (agents.length === 0) return null;
  return (
    <section className="agent-tools" data-testid="agent-tools">
      <h2>Tools</h2>
      {agents.map((entry) => (
        <div key={entry.agent} className="agent-tools-agent" data-testid="agent-tools-agent">
          {agents.length > 1 && <div className="agent-tools-name">{entry.agent}</div>}
          <ul>
            {entry.tools.map((tool) => (
              <li
                key={tool.name}
                data-testid="agent-tool"
                data-source={tool.source ?? 'function'}
                title={tool.description}
              >
                <code>{tool.name}</code>
                {tool.source && <span className="tool-source">{tool.source}</span>}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </section>
  );
}
