import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { Agent } from '../agent/agent.js';
import { ChatModelAgent } from '../agent/chat-model-agent.js';
import { ScriptedChatModel } from '../testing/scripted-chat-model.js';
import type { TeamAgentNames } from './agent-names.js';
import { AgentTool } from './agent-tool.js';
import { withDeterministicTransfer } from './deterministic-transfer.js';
import { LoopAgent } from './loop-agent.js';
import { SequentialAgent } from './sequential-agent.js';
import { createTeam } from './team.js';

const model = new ScriptedChatModel([]);
const billing = new ChatModelAgent({ name: 'billing', model });
const tech = new ChatModelAgent({ name: 'tech', model });
const triage = new ChatModelAgent({ name: 'triage', model, subAgents: [billing, tech] });

describe('team agent names', () => {
  it('collects the literal names of the transfer tree', () => {
    expectTypeOf(triage.name).toEqualTypeOf<'triage'>();
    expectTypeOf<TeamAgentNames<typeof triage>>().toEqualTypeOf<'triage' | 'billing' | 'tech'>();
  });

  it('counts a workflow agent as one member (its sub-agents are inside it)', () => {
    const pipeline = new SequentialAgent({ name: 'pipeline', subAgents: [billing] });
    const root = new ChatModelAgent({ name: 'root', model, subAgents: [pipeline] });
    expectTypeOf<TeamAgentNames<typeof root>>().toEqualTypeOf<'root' | 'pipeline'>();
  });

  it('checks hand-off policies against the team’s agents', () => {
    createTeam(triage, { handOffContext: { billing: 'summary', tech: 'isolated' } });
    createTeam(triage, { handOffContext: 'lastMessage', routeNextTurnTo: 'root' });
    // @ts-expect-error "bilina" is not an agent of the team
    createTeam(triage, { handOffContext: { bilina: 'summary' } });
    // @ts-expect-error not a context policy
    createTeam(triage, { handOffContext: { billing: 'everything' } });
    // @ts-expect-error routes to the active agent or the root only
    createTeam(triage, { routeNextTurnTo: 'billing' });
  });

  it('checks deterministic hand-back targets against the team', () => {
    const worker = withDeterministicTransfer(new ChatModelAgent({ name: 'worker', model }), 'boss');
    const boss = new ChatModelAgent({ name: 'boss', model, subAgents: [worker] });
    createTeam(boss);
    const stray = withDeterministicTransfer(new ChatModelAgent({ name: 'stray', model }), 'nobody');
    const lead = new ChatModelAgent({ name: 'lead', model, subAgents: [stray] });
    // @ts-expect-error "nobody" is not an agent of this team
    createTeam(lead);
  });
});

describe('agents are agents', () => {
  it('keeps names literal and fits the Agent interface', () => {
    const loop = new LoopAgent({ name: 'refine', subAgents: [billing, tech], maxIterations: 2 });
    expectTypeOf(loop.name).toEqualTypeOf<'refine'>();
    expectTypeOf(loop).toExtend<Agent>();
    expectTypeOf(triage).toExtend<Agent<'triage'>>();
    expectTypeOf(createTeam(triage).name).toEqualTypeOf<'triage'>();
  });

  it('types an agent tool’s arguments from its input schema', () => {
    const plain = new AgentTool(billing);
    expectTypeOf(plain.execute).parameter(0).toEqualTypeOf<{ request: string }>();
    const typed = new AgentTool(billing, { inputSchema: z.object({ order: z.number() }) });
    expectTypeOf(typed.execute).parameter(0).toEqualTypeOf<{ order: number }>();
    // @ts-expect-error `request` is not an argument of this tool
    typed.execute({ request: 'x' }, {} as Parameters<typeof typed.execute>[1]);
  });
});
