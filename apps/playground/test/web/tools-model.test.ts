// Issue #20 (5): an agent's tools read from the graph, and what a model call was offered against them.
import { AgentTool, ChatModelAgent, jsonSchemaTool } from '@weft/adk';
import { ScriptedChatModel } from '@weft/adk/testing';
import { describe, expect, it } from 'vitest';
import type { Topology } from '../../src/shared/wire.ts';
import { agentToolLists, offeredTools } from '../../web/src/agent-tools/tools-model.ts';

const mcp = (name: string) =>
  jsonSchemaTool({
    name,
    description: `${name} from a server`,
    parameters: { type: 'object', properties: {} },
    source: 'mcp:files',
    execute: () => name,
  });

function hostTopology(): Topology {
  const reader = new ChatModelAgent({
    name: 'reader',
    description: 'Reads files',
    model: new ScriptedChatModel([]),
    tools: [mcp('read_file'), mcp('list_dir')],
  });
  const host = new ChatModelAgent({
    name: 'host',
    model: new ScriptedChatModel([]),
    tools: [new AgentTool(reader)],
  });
  return host.compile().toJSON() as unknown as Topology;
}

describe('tools of agents', () => {
  it('lists every agent of a graph with its tools, agents used as tools included', () => {
    expect(agentToolLists(hostTopology())).toEqual([
      { agent: 'host', tools: [{ name: 'reader', description: 'Reads files', source: 'agent' }] },
      {
        agent: 'reader',
        tools: [
          { name: 'read_file', description: 'read_file from a server', source: 'mcp:files' },
          { name: 'list_dir', description: 'list_dir from a server', source: 'mcp:files' },
        ],
      },
    ]);
  });

  it("splits a call's offered tools into the agent's own and those loaded for it", () => {
    const agents = agentToolLists(hostTopology());
    expect(offeredTools(['read_file', 'search_tools'], agents, 'reader')).toEqual({
      offered: [
        { name: 'read_file', loaded: false, source: 'mcp:files' },
        { name: 'search_tools', loaded: true },
      ],
      notOffered: ['list_dir'],
    });
    expect(offeredTools(['x'], agents, 'nobody')).toBeUndefined();
  });
});
