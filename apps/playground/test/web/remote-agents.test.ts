// Issue #46 (3): the graph view marks a remote A2A agent (`RemoteA2aAgent` of @weft/a2a) — its own
// node, and the agent's node in the team or supervisor graph that contains it (drawn in Chromium by
// test/e2e/remote-agent.test.ts).
import { RemoteA2aAgent } from '@weft/a2a';
import { ChatModelAgent } from '@weft/adk';
import { ScriptedChatModel } from '@weft/adk/testing';
import { createSupervisor } from '@weft/prebuilt';
import { describe, expect, it } from 'vitest';
import type { Topology } from '../../src/shared/wire.ts';
import { remoteAgentOf } from '../../web/src/graph-view/remote-agents.ts';

const researcher = () =>
  new RemoteA2aAgent({
    name: 'researcher',
    description: 'Finds sources',
    url: 'http://agents.example/researcher/',
  });
const model = () => new ScriptedChatModel(['Done.']);

describe('remote A2A agents in the graph view', () => {
  it('finds the remote agent of its own node, of a team member and of a supervisor’s worker', () => {
    const own = researcher().compile().toJSON() as unknown as Topology;
    expect(own.nodes.map((n) => remoteAgentOf(n)?.url ?? null)).toEqual([
      null,
      'http://agents.example/researcher/',
      null,
    ]);

    const team = new ChatModelAgent({ name: 'triage', model: model(), subAgents: [researcher()] })
      .compile()
      .toJSON() as unknown as Topology;
    const member = team.nodes.find((n) => n.id === 'researcher');
    expect(member && remoteAgentOf(member)?.agent).toBe('researcher');
    expect(team.nodes.filter((n) => remoteAgentOf(n)).map((n) => n.id)).toEqual(['researcher']);

    const supervised = createSupervisor({ supervisor: { model: model() }, agents: [researcher()] })
      .compile()
      .toJSON() as unknown as Topology;
    const worker = supervised.nodes.find((n) => n.id === 'researcher');
    expect(worker && remoteAgentOf(worker)?.url).toBe('http://agents.example/researcher/');
  });
});
