import { describe, expect, test } from 'vitest';
import {
  type AgentEvent,
  ChatModelAgent,
  exitLoopTool,
  LoopAgent,
  MemorySessionService,
  Runner,
  SequentialAgent,
} from '../src/index.js';
import { ScriptedChatModel } from '../src/testing/index.js';
import { drain } from './multi-helpers.js';

// Who answers the next user turn, as Google ADK's runner decides (`_find_agent_to_run`).

const transfer = (id: string, agent_name: string) => ({
  toolCalls: [{ id, name: 'transfer_to_agent', arguments: { agent_name } }],
});

const answerers = (events: readonly AgentEvent[]) =>
  events.filter((e) => e.message?.role === 'assistant').map((e) => e.author);

function run(agent: ChatModelAgent) {
  const runner = new Runner({ agent, sessionService: new MemorySessionService(), streaming: false });
  return (message: string) => drain(runner.run({ userId: 'u', sessionId: 's', message }));
}

describe('the agent that answers the next turn', () => {
  test('a sub-agent that may not transfer back answers once; the next turn goes to the root', async () => {
    const clerk = new ChatModelAgent({
      name: 'clerk',
      model: new ScriptedChatModel(['Filed.', 'Filed again.']),
      disallowTransferToParent: true,
    });
    const rootModel = new ScriptedChatModel([transfer('t1', 'clerk'), 'Back at the front desk.']);
    const root = new ChatModelAgent({ name: 'desk', model: rootModel, subAgents: [clerk] });
    const turn = run(root);
    expect(answerers(await turn('File my form'))).toEqual(['desk', 'clerk']);
    expect(answerers(await turn('Something else'))).toEqual(['desk']);
  });

  test('a transferable sub-agent keeps the conversation', async () => {
    const helper = new ChatModelAgent({ name: 'helper', model: new ScriptedChatModel(['One.', 'Two.']) });
    const root = new ChatModelAgent({
      name: 'desk',
      model: new ScriptedChatModel([transfer('t1', 'helper')]),
      subAgents: [helper],
    });
    const turn = run(root);
    await turn('Hi');
    expect(answerers(await turn('Again'))).toEqual(['helper']);
  });

  test('below an agent that may not transfer to its parent nobody holds the conversation', async () => {
    const leaf = new ChatModelAgent({ name: 'leaf', model: new ScriptedChatModel(['Leaf here.']) });
    const mid = new ChatModelAgent({
      name: 'mid',
      model: new ScriptedChatModel([transfer('m1', 'leaf')]),
      subAgents: [leaf],
      disallowTransferToParent: true,
    });
    const root = new ChatModelAgent({
      name: 'root',
      model: new ScriptedChatModel([transfer('r1', 'mid'), 'Root again.']),
      subAgents: [mid],
    });
    const turn = run(root);
    expect(answerers(await turn('Go deep'))).toEqual(['root', 'mid', 'leaf']);
    expect(answerers(await turn('Next'))).toEqual(['root']);
  });

  test('a finished sequential agent does not run again: the agent that transferred to it answers', async () => {
    const stepModel = new ScriptedChatModel(['Step done.']);
    const step = new ChatModelAgent({ name: 'step', model: stepModel });
    const pipeline = new SequentialAgent({ name: 'pipeline', subAgents: [step] });
    const rootModel = new ScriptedChatModel([transfer('t1', 'pipeline'), 'How else can I help?']);
    const root = new ChatModelAgent({ name: 'desk', model: rootModel, subAgents: [pipeline] });
    const turn = run(root);
    expect(answerers(await turn('Run the pipeline'))).toEqual(['desk', 'step']);
    expect(answerers(await turn('Thanks'))).toEqual(['desk']);
    expect(stepModel.calls).toHaveLength(1);
  });

  test('after exit_loop the agent that started the loop continues in the same turn', async () => {
    const critic = new ChatModelAgent({
      name: 'critic',
      model: new ScriptedChatModel([{ text: 'Good.', toolCalls: [{ name: 'exit_loop' }] }]),
      tools: [exitLoopTool()],
    });
    const writer = new ChatModelAgent({ name: 'writer', model: new ScriptedChatModel(['Draft.']) });
    const refine = new LoopAgent({ name: 'refine', subAgents: [writer, critic], maxIterations: 3 });
    const rootModel = new ScriptedChatModel([transfer('t1', 'refine'), 'Here is your polished draft.']);
    const root = new ChatModelAgent({ name: 'desk', model: rootModel, subAgents: [refine] });
    const events = await run(root)('Write and polish');
    expect(answerers(events)).toEqual(['desk', 'writer', 'critic', 'desk']);
    expect(rootModel.calls).toHaveLength(2);
  });

  test('a loop that ends after maxIterations ends the turn', async () => {
    const writer = new ChatModelAgent({ name: 'writer', model: new ScriptedChatModel(['Draft.']) });
    const refine = new LoopAgent({ name: 'refine', subAgents: [writer], maxIterations: 1 });
    const rootModel = new ScriptedChatModel([transfer('t1', 'refine')]);
    const root = new ChatModelAgent({ name: 'desk', model: rootModel, subAgents: [refine] });
    expect(answerers(await run(root)('Write'))).toEqual(['desk', 'writer']);
    expect(rootModel.calls).toHaveLength(1);
  });

  test('a team inside a sequence starts at its root on every turn', async () => {
    const billing = new ChatModelAgent({ name: 'billing', model: new ScriptedChatModel(['Refunded.']) });
    const triageModel = new ScriptedChatModel([transfer('x1', 'billing'), 'Triage again.']);
    const triage = new ChatModelAgent({ name: 'triage', model: triageModel, subAgents: [billing] });
    const flow = new SequentialAgent({ name: 'flow', subAgents: [triage] });
    const runner = new Runner({ agent: flow, sessionService: new MemorySessionService(), streaming: false });
    const turn = (message: string) => drain(runner.run({ userId: 'u', sessionId: 's', message }));
    expect(answerers(await turn('Refund'))).toEqual(['triage', 'billing']);
    expect(answerers(await turn('More'))).toEqual(['triage']);
  });
});
