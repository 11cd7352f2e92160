import { describe, expect, test } from 'vitest';
import {
  type AgentEvent,
  ChatModelAgent,
  createTeam,
  MemorySessionService,
  messageText,
  Runner,
  SequentialAgent,
  withDeterministicTransfer,
} from '../src/index.js';
import { ScriptedChatModel } from '../src/testing/index.js';
import { drain, trail } from './multi-helpers.js';

const transfer = (id: string, agent_name: string) => ({
  toolCalls: [{ id, name: 'transfer_to_agent', arguments: { agent_name } }],
});

function helpDesk() {
  const triageModel = new ScriptedChatModel([
    transfer('t1', 'sales'),
    transfer('t2', 'billing'),
    'Happy to help with anything else!',
  ]);
  const billingModel = new ScriptedChatModel(['I refunded the duplicate charge.', transfer('b1', 'triage')]);
  const billing = new ChatModelAgent({
    name: 'billing',
    description: 'Invoices and refunds',
    model: billingModel,
  });
  const tech = new ChatModelAgent({
    name: 'tech',
    description: 'Connectivity problems',
    model: new ScriptedChatModel([]),
    disallowTransferToPeers: true,
  });
  const triage = new ChatModelAgent({
    name: 'triage',
    description: 'Routes requests',
    instruction: 'Route the user.',
    model: triageModel,
    subAgents: [billing, tech],
  });
  return { triage, triageModel, billingModel };
}

describe('transfer_to_agent in a team', () => {
  test('a triage agent transfers to billing, and billing back to triage on the next turn', async () => {
    const { triage, triageModel, billingModel } = helpDesk();
    const runner = new Runner({
      agent: triage,
      sessionService: new MemorySessionService(),
      streaming: false,
    });
    const first = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'I was charged twice' }));
    expect(trail(first)).toEqual([
      'user:user',
      'triage@triage:assistant',
      'triage@triage:tool',
      'triage@triage:assistant',
      'triage@triage:tool',
      'triage@triage:transferTo',
      'billing@triage.billing:assistant',
      'triage:done',
    ]);
    // A transfer to an unknown agent is a tool error the model reads; then it transfers correctly.
    expect(first[2]?.message).toMatchObject({ role: 'tool', status: 'error' });
    expect(messageText(first[2]!.message!)).toMatch(/agent_name/);
    expect(first[5]?.actions.transferTo).toBe('billing');
    // The tool and the instruction are generated from the topology.
    const offered = triageModel.calls[0]?.options.tools?.find((t) => t.name === 'transfer_to_agent');
    expect(offered?.parameters).toMatchObject({
      properties: { agent_name: { enum: ['billing', 'tech'] } },
    });
    expect(messageText(triageModel.calls[0]!.messages[0]!)).toContain('- billing: Invoices and refunds');
    // Billing continues the conversation without seeing the hand-off traffic.
    expect(billingModel.calls[0]?.messages.slice(1).map((m) => m.role)).toEqual(['user']);
    const billingPrompt = messageText(billingModel.calls[0]!.messages[0]!);
    expect(billingPrompt).toContain('- triage (your parent agent): Routes requests');
    expect(billingPrompt).toContain('- tech (a peer): Connectivity problems');

    const second = await drain(
      runner.run({ userId: 'u', sessionId: 's', message: 'Thanks! Anything else?' }),
    );
    expect(trail(second)).toEqual([
      'user:user',
      'billing@triage.billing:assistant',
      'billing@triage.billing:tool',
      'billing@triage.billing:transferTo',
      'triage@triage:assistant',
      'triage:done',
    ]);
    expect(triageModel.calls[2]?.messages.slice(1).map((m) => messageText(m))).toEqual([
      'I was charged twice',
      'For context: [billing] said: I refunded the duplicate charge.',
      'Thanks! Anything else?',
    ]);
  });

  test('the team graph has a node per agent and a router after each', () => {
    const { triage } = helpDesk();
    const json = triage.compile().toJSON();
    expect(json.nodes.map((n) => n.id)).toEqual([
      '__start__',
      'enter',
      'triage',
      'billing',
      'tech',
      '__end__',
    ]);
    const from = (id: string) => json.edges.filter((e) => e.source === id).map((e) => e.target);
    expect(from('enter')).toEqual(['triage', 'billing', 'tech']);
    expect(from('billing')).toEqual(['triage', 'tech', '__end__']);
    expect(from('tech')).toEqual(['triage', '__end__']);
  });

  test('routeNextTurnTo: root starts every turn at the root', async () => {
    const { triage, triageModel } = helpDesk();
    const team = createTeam(triage, { routeNextTurnTo: 'root' });
    const runner = new Runner({ agent: team, sessionService: new MemorySessionService(), streaming: false });
    await drain(runner.run({ userId: 'u', sessionId: 's', message: 'I was charged twice' }));
    const second = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'Hello again' }));
    expect(second[1]?.author).toBe('triage');
    expect(triageModel.calls).toHaveLength(3);
  });
});

describe('hand-off context policies', () => {
  async function handOff(policy: 'lastMessage' | 'isolated' | 'summary') {
    const triageModel = new ScriptedChatModel([
      'Let me look.',
      {
        text: 'The user wants a refund for order 42.',
        toolCalls: [{ id: 'h1', name: 'transfer_to_agent', arguments: { agent_name: 'billing' } }],
      },
      'Summary: refund for order 42 requested.',
    ]);
    const billingModel = new ScriptedChatModel(['Done.']);
    const billing = new ChatModelAgent({ name: 'billing', model: billingModel });
    const triage = new ChatModelAgent({ name: 'triage', model: triageModel, subAgents: [billing] });
    const team = createTeam(triage, { handOffContext: { billing: policy }, routeNextTurnTo: 'root' });
    const runner = new Runner({ agent: team, sessionService: new MemorySessionService(), streaming: false });
    await drain(runner.run({ userId: 'u', sessionId: 's', message: 'Hi' }));
    const events: AgentEvent[] = await drain(
      runner.run({ userId: 'u', sessionId: 's', message: 'Refund order 42' }),
    );
    expect(events.some((e) => e.author === 'billing')).toBe(true);
    return billingModel.calls[0]?.messages.slice(1).map((m) => messageText(m)) ?? [];
  }

  test('lastMessage: only the last message before the hand-off', async () => {
    expect(await handOff('lastMessage')).toEqual([
      'For context: [triage] said: The user wants a refund for order 42.',
    ]);
  });

  test('isolated: only the user’s latest message', async () => {
    expect(await handOff('isolated')).toEqual(['Refund order 42']);
  });

  test('summary: a summary written by the model at the hand-off, then the latest message', async () => {
    expect(await handOff('summary')).toEqual([
      'For context: summary of the conversation so far: Summary: refund for order 42 requested.',
      'Refund order 42',
    ]);
  });
});

describe('withDeterministicTransfer', () => {
  test('workers always hand back to their supervisor', async () => {
    const supervisorModel = new ScriptedChatModel([
      transfer('s1', 'researcher'),
      transfer('s2', 'writer'),
      'All done: a short note on bees.',
    ]);
    const worker = (name: string, answer: string) =>
      withDeterministicTransfer(
        new ChatModelAgent({
          name,
          model: new ScriptedChatModel([answer]),
          disallowTransferToParent: true,
          disallowTransferToPeers: true,
        }),
        'supervisor',
      );
    const supervisor = new ChatModelAgent({
      name: 'supervisor',
      model: supervisorModel,
      subAgents: [worker('researcher', 'Bees dance.'), worker('writer', 'A short note on bees.')],
    });
    const team = createTeam(supervisor);
    const runner = new Runner({ agent: team, sessionService: new MemorySessionService(), streaming: false });
    const events = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'Write about bees' }));
    expect(trail(events)).toEqual([
      'user:user',
      'supervisor@supervisor:assistant',
      'supervisor@supervisor:tool',
      'supervisor@supervisor:transferTo',
      'researcher@supervisor.researcher:assistant',
      'researcher@supervisor.researcher:transferTo',
      'supervisor@supervisor:assistant',
      'supervisor@supervisor:tool',
      'supervisor@supervisor:transferTo',
      'writer@supervisor.writer:assistant',
      'writer@supervisor.writer:transferTo',
      'supervisor@supervisor:assistant',
      'supervisor:done',
    ]);
    expect(events[5]?.actions.transferTo).toBe('supervisor');
    expect(supervisorModel.calls[2]?.messages.slice(1).map((m) => messageText(m))).toEqual([
      'Write about bees',
      'For context: [researcher] said: Bees dance.',
      'For context: [writer] said: A short note on bees.',
    ]);
    // Workers that may not transfer get no transfer tool.
    const workerGraph = team
      .compile()
      .toJSON()
      .nodes.find((n) => n.id === 'writer');
    expect(workerGraph?.subgraph?.nodes.map((n) => n.id)).toEqual([
      '__start__',
      'writer',
      'handBack',
      '__end__',
    ]);
  });

  test('a hand-back target outside the team is rejected', () => {
    const stray = withDeterministicTransfer(
      new ChatModelAgent({ name: 'w', model: new ScriptedChatModel([]) }),
      'boss',
    );
    const root = new ChatModelAgent({ name: 'lead', model: new ScriptedChatModel([]), subAgents: [] });
    expect(
      () => new ChatModelAgent({ name: 'top', model: new ScriptedChatModel([]), subAgents: [stray, root] }),
    ).toThrow(/hands back to "boss", which is not an agent of the team/);
  });
});

describe('team topologies', () => {
  test('a deeper tree is flattened into one team; rules decide the targets', () => {
    const leaf = new ChatModelAgent({
      name: 'leaf',
      model: new ScriptedChatModel([]),
      disallowTransferToPeers: true,
    });
    const other = new ChatModelAgent({ name: 'other', model: new ScriptedChatModel([]) });
    const mid = new ChatModelAgent({
      name: 'mid',
      model: new ScriptedChatModel([]),
      subAgents: [leaf, other],
    });
    const root = new ChatModelAgent({ name: 'root', model: new ScriptedChatModel([]), subAgents: [mid] });
    const json = root.compile().toJSON();
    const from = (id: string) => json.edges.filter((e) => e.source === id).map((e) => e.target);
    expect(json.nodes.map((n) => n.id)).toEqual([
      '__start__',
      'enter',
      'root',
      'mid',
      'leaf',
      'other',
      '__end__',
    ]);
    expect(from('root')).toEqual(['mid', '__end__']);
    expect(from('mid')).toEqual(['leaf', 'other', 'root', '__end__']);
    expect(from('leaf')).toEqual(['mid', '__end__']);
    expect(from('other')).toEqual(['mid', 'leaf', '__end__']);
  });

  test('a team inside a sequence transfers within itself, then the sequence goes on', async () => {
    const billing = new ChatModelAgent({
      name: 'billing',
      model: new ScriptedChatModel(['Refunded.']),
      outputKey: 'resolution',
    });
    const triage = new ChatModelAgent({
      name: 'triage',
      model: new ScriptedChatModel([transfer('x1', 'billing')]),
      subAgents: [billing],
    });
    const summaryModel = new ScriptedChatModel(['Ticket closed: Refunded.']);
    const summary = new ChatModelAgent({
      name: 'summary',
      model: summaryModel,
      instruction: 'Close: {resolution}',
    });
    const flow = new SequentialAgent({ name: 'flow', subAgents: [triage, summary] });
    const runner = new Runner({ agent: flow, sessionService: new MemorySessionService(), streaming: false });
    const events = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'Refund please' }));
    expect(trail(events).filter((t) => t.includes(':assistant'))).toEqual([
      'triage@flow.triage:assistant',
      'billing@flow.triage.billing:assistant',
      'summary@flow.summary:assistant',
    ]);
    expect(summaryModel.calls[0]?.messages[0]).toMatchObject({ content: 'Close: Refunded.' });
  });
});
