import {
  type AgentEvent,
  AgentTool,
  ChatModelAgent,
  MemorySessionService,
  messageText,
  ParallelAgent,
  Runner,
  SequentialAgent,
} from '@weft/adk';
import { drain, ScriptedChatModel } from '@weft/adk/testing';
import { createSupervisor } from '@weft/prebuilt';
import { afterEach, describe, expect, it } from 'vitest';
import { RemoteA2aAgent } from '../src/index.js';
import { replyingExecutor, type SdkAgent, startSdkAgent } from './fixtures/sdk-agents.js';

let remote: SdkAgent | undefined;
afterEach(async () => {
  await remote?.close();
  remote = undefined;
});

const transferTo = (agent: string) => ({
  toolCalls: [{ name: 'transfer_to_agent', arguments: { agent_name: agent } }],
});
const replies = (events: readonly AgentEvent[], author: string) =>
  events
    .filter((e) => !e.partial && e.author === author && e.message?.role === 'assistant')
    .map((e) => messageText(e.message!));

async function researcher(): Promise<RemoteA2aAgent<'researcher'>> {
  remote = await startSdkAgent(
    replyingExecutor((text) => `Found 3 sources about ${text.replace(/^.*about /, '')}`),
    { name: 'SDK researcher', description: 'Finds sources on a topic' },
  );
  return RemoteA2aAgent.fromUrl({ name: 'researcher', url: remote.url });
}

describe('a remote A2A agent (built with @a2a-js/sdk) in every Weft multi-agent pattern', () => {
  it('takes its description from the card and is drawn as a remote agent', async () => {
    const agent = await researcher();
    expect(agent.description).toBe('Finds sources on a topic');
    const [, node] = agent.compile().toJSON().nodes;
    expect(node?.metadata).toEqual({ remoteA2a: { url: remote?.url, agent: 'researcher' } });
  });

  it('is a transfer target of a team: its reply streams onto the run and joins the conversation', async () => {
    const agent = await researcher();
    const model = new ScriptedChatModel([transferTo('researcher')]);
    const desk = new ChatModelAgent({ name: 'desk', model, subAgents: [agent] });
    const runner = new Runner({ agent: desk, sessionService: new MemorySessionService() });
    const events = await drain(
      runner.run({ userId: 'u', sessionId: 's', message: 'Research tides, about tides' }),
    );
    expect(replies(events, 'researcher')).toEqual(['Found 3 sources about tides']);
    const tokens = events
      .filter((e) => e.partial && e.author === 'researcher')
      .map((e) => e.chunk?.text ?? '');
    expect(tokens.length).toBeGreaterThan(1);
    expect(tokens.join('')).toBe('Found 3 sources about tides');
    // The remote task's working status is an event of the agent too.
    expect(events.some((e) => e.custom?.type === 'a2a-status')).toBe(true);
    expect(remote?.received[0]?.parts.map((p) => p.content)).toEqual([
      { $case: 'text', value: 'Research tides, about tides' },
    ]);
  });

  it('continues the same remote context on the next turn, sending only what is new', async () => {
    const agent = await researcher();
    const desk = new ChatModelAgent({
      name: 'desk',
      model: new ScriptedChatModel([transferTo('researcher'), transferTo('researcher')]),
      subAgents: [agent],
    });
    const runner = new Runner({ agent: desk, sessionService: new MemorySessionService() });
    await drain(runner.run({ userId: 'u', sessionId: 's', message: 'Research about tides' }));
    await drain(runner.run({ userId: 'u', sessionId: 's', message: 'Now about waves' }));
    const [first, second] = remote?.received ?? [];
    expect(second?.contextId).toBe(first?.contextId);
    expect(second?.parts.map((p) => p.content)).toEqual([{ $case: 'text', value: 'Now about waves' }]);
  });

  it('is an AgentTool: the model calls it and reads its reply', async () => {
    const agent = await researcher();
    const host = new ChatModelAgent({
      name: 'host',
      model: new ScriptedChatModel([
        { toolCalls: [{ name: 'researcher', arguments: { request: 'Sources about reefs' } }] },
        'The researcher found 3 sources.',
      ]),
      tools: [new AgentTool(agent)],
    });
    const runner = new Runner({ agent: host, sessionService: new MemorySessionService() });
    const events = await drain(
      runner.run({ userId: 'u', sessionId: 's', message: 'What is there on reefs?' }),
    );
    const result = events.find((e) => e.message?.role === 'tool');
    expect(messageText(result!.message!)).toContain('Found 3 sources about reefs');
    expect(replies(events, 'host').at(-1)).toBe('The researcher found 3 sources.');
  });

  it('is a worker of a prebuilt supervisor: it gets the work and hands back', async () => {
    const agent = await researcher();
    const team = createSupervisor({
      supervisor: {
        model: new ScriptedChatModel([
          transferTo('researcher'),
          'The researcher found 3 sources about kelp.',
        ]),
      },
      agents: [agent],
    });
    const runner = new Runner({ agent: team, sessionService: new MemorySessionService() });
    const events = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'Research about kelp' }));
    expect(replies(events, 'researcher')).toEqual(['Found 3 sources about kelp']);
    expect(replies(events, 'supervisor').at(-1)).toBe('The researcher found 3 sources about kelp.');
    expect(events.some((e) => e.author === 'researcher' && e.actions.transferTo === 'supervisor')).toBe(true);
  });

  it('is a step of a sequential workflow and a branch of a parallel one', async () => {
    const agent = await researcher();
    const writer = new ChatModelAgent({
      name: 'writer',
      model: new ScriptedChatModel(['A note from the sources.']),
    });
    const pipeline = new SequentialAgent({ name: 'pipeline', subAgents: [agent, writer] });
    const piped = await drain(
      new Runner({ agent: pipeline, sessionService: new MemorySessionService() }).run({
        userId: 'u',
        sessionId: 's',
        message: 'Notes about eels',
      }),
    );
    expect(replies(piped, 'researcher')).toEqual(['Found 3 sources about eels']);
    expect(replies(piped, 'writer')).toEqual(['A note from the sources.']);
    const checker = new ChatModelAgent({ name: 'checker', model: new ScriptedChatModel(['Checked.']) });
    const both = new ParallelAgent({ name: 'both', subAgents: [agent, checker] });
    const fanned = await drain(
      new Runner({ agent: both, sessionService: new MemorySessionService() }).run({
        userId: 'u',
        sessionId: 's',
        message: 'Sources about rays',
      }),
    );
    expect(replies(fanned, 'researcher')).toEqual(['Found 3 sources about rays']);
    expect(replies(fanned, 'checker')).toEqual(['Checked.']);
  });
});
