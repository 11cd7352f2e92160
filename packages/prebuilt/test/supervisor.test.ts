import { ChatModelAgent, MemorySessionService, messageText, Runner, tool } from '@weft/adk';
import { ScriptedChatModel } from '@weft/adk/testing';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { createSupervisor, type SupervisorOutputMode } from '../src/index.js';
import { branchTrace, drain, sent } from './helpers.js';

const transfer = (id: string, agent_name: string, text = '') => ({
  text,
  toolCalls: [{ id, name: 'transfer_to_agent', arguments: { agent_name } }],
});

function search(fail = false) {
  return tool({
    name: 'search',
    description: 'Searches the web',
    parameters: z.object({ q: z.string() }),
    execute: ({ q }) => {
      if (fail) throw new Error('search service unavailable');
      return `Results for ${q}: bees dance to show where food is.`;
    },
  });
}

/** A researcher with a search tool, a writer without tools, and a supervisor that uses both. */
function newsroom(
  options: { outputMode?: SupervisorOutputMode; failSearch?: boolean; extra?: readonly string[] } = {},
) {
  const researcherModel = new ScriptedChatModel([
    { text: 'Let me search.', toolCalls: [{ id: 'r1', name: 'search', arguments: { q: 'bees' } }] },
    'Bees dance to show where food is.',
  ]);
  const researcher = new ChatModelAgent({
    name: 'researcher',
    description: 'Finds facts on the web',
    model: researcherModel,
    tools: [search(options.failSearch)],
  });
  const writerModel = new ScriptedChatModel(['Bees talk by dancing.']);
  const writer = new ChatModelAgent({
    name: 'writer',
    description: 'Writes short texts',
    model: writerModel,
  });
  const supervisorModel = new ScriptedChatModel([
    transfer('s1', 'researcher', 'Research how bees communicate.'),
    transfer('s2', 'writer'),
    'Here is your note: Bees talk by dancing.',
    ...(options.extra ?? []),
  ]);
  const team = createSupervisor({
    supervisor: { model: supervisorModel },
    agents: [researcher, writer],
    ...(options.outputMode ? { outputMode: options.outputMode } : {}),
  });
  const sessions = new MemorySessionService();
  const runner = new Runner({ agent: team, sessionService: sessions, streaming: false });
  return { team, runner, sessions, supervisorModel, researcherModel, writerModel };
}

describe('createSupervisor', () => {
  test('happy path: the supervisor routes, each worker hands back, one invocation under one root', async () => {
    const { runner, supervisorModel, researcherModel, writerModel } = newsroom();
    const events = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'Write about bees' }));
    // The sequence the playground draws: hand-offs, the workers' work on their branches, hand-backs.
    expect(branchTrace(events)).toEqual([
      'user:user',
      'supervisor@supervisor:calls(transfer_to_agent)',
      'supervisor@supervisor:result(transfer_to_agent)',
      'supervisor@supervisor:transfer(researcher)',
      'researcher@supervisor.researcher:calls(search)',
      'researcher@supervisor.researcher:result(search)',
      'researcher@supervisor.researcher:assistant',
      'researcher@supervisor.researcher:transfer(supervisor)',
      'supervisor@supervisor:calls(transfer_to_agent)',
      'supervisor@supervisor:result(transfer_to_agent)',
      'supervisor@supervisor:transfer(writer)',
      'writer@supervisor.writer:assistant',
      'writer@supervisor.writer:transfer(supervisor)',
      'supervisor@supervisor:assistant',
      'supervisor:done',
    ]);
    expect(events.filter((e) => e.actions.transferTo).map((e) => e.actions.transferTo)).toEqual([
      'researcher',
      'supervisor',
      'writer',
      'supervisor',
    ]);
    expect(new Set(events.map((e) => e.invocationId)).size).toBe(1);
    expect(events.every((e) => e.branch === undefined || e.branch.startsWith('supervisor'))).toBe(true);
    // lastMessage: the supervisor sees each worker's final reply, none of its tool traffic.
    expect(sent(supervisorModel, 2)).toEqual([
      'Write about bees',
      'Research how bees communicate.',
      'For context: [researcher] said: Bees dance to show where food is.',
      'For context: [writer] said: Bees talk by dancing.',
    ]);
    // The supervisor's prompt lists the workers; workers cannot transfer, so only it coordinates.
    expect(messageText(supervisorModel.calls[0]!.messages[0]!)).toContain(
      '- researcher: Finds facts on the web',
    );
    expect(researcherModel.calls[0]?.options.tools?.map((t) => t.name)).toEqual(['search']);
    expect(writerModel.calls[0]?.options.tools).toBeUndefined();
    // Workers see the conversation so far (handOffContext 'full'), the supervisor's note included.
    expect(sent(researcherModel, 0)).toEqual([
      'Write about bees',
      'For context: [supervisor] said: Research how bees communicate.',
    ]);
  });

  test("outputMode 'full' shows the supervisor the workers' tool calls and results", async () => {
    const { runner, supervisorModel } = newsroom({ outputMode: 'full' });
    await drain(runner.run({ userId: 'u', sessionId: 's', message: 'Write about bees' }));
    expect(sent(supervisorModel, 1)).toEqual([
      'Write about bees',
      'Research how bees communicate.',
      'For context: [researcher] said: Let me search.\n[called search {"q":"bees"}]',
      'For context: [researcher] said: [search returned] Results for bees: bees dance to show where food is.',
      'For context: [researcher] said: Bees dance to show where food is.',
    ]);
  });

  test('error path: a worker’s tool fails; the worker reads the error and the supervisor gets its report', async () => {
    const { runner, supervisorModel } = newsroom({ failSearch: true });
    const events = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'Write about bees' }));
    const failed = events.find((e) => e.message?.role === 'tool' && e.message.name === 'search');
    expect(failed?.message).toMatchObject({ status: 'error' });
    expect(messageText(failed!.message!)).toContain('search service unavailable');
    expect(events.at(-1)).toMatchObject({ turnComplete: true });
    expect(events.at(-1)?.error).toBeUndefined();
    expect(supervisorModel.calls).toHaveLength(3);
  });

  test('error path: a failing worker ends the invocation with an error event', async () => {
    const broken = new ChatModelAgent({
      name: 'broken',
      model: new ScriptedChatModel([new Error('model down')]),
    });
    const supervisorModel = new ScriptedChatModel([transfer('s1', 'broken')]);
    const team = createSupervisor({ supervisor: { model: supervisorModel }, agents: [broken] });
    const sessions = new MemorySessionService();
    const runner = new Runner({ agent: team, sessionService: sessions, streaming: false });
    await expect(drain(runner.run({ userId: 'u', sessionId: 's', message: 'go' }))).rejects.toThrow(
      /model down/,
    );
    const session = await sessions.get({ appName: 'supervisor', userId: 'u', sessionId: 's' });
    expect(session?.events.at(-1)).toMatchObject({
      turnComplete: true,
      error: { message: expect.stringMatching(/model down/) },
    });
  });

  test('pause and resume: a worker’s approval pauses the team; resuming continues inside the worker', async () => {
    const sent: string[] = [];
    const publish = tool({
      name: 'publish',
      description: 'Publishes a text',
      parameters: z.object({ text: z.string() }),
      needsApproval: true,
      execute: ({ text }) => {
        sent.push(text);
        return 'published';
      },
    });
    const publisherModel = new ScriptedChatModel([
      { toolCalls: [{ id: 'p1', name: 'publish', arguments: { text: 'Bees dance.' } }] },
      'Published.',
    ]);
    const publisher = new ChatModelAgent({ name: 'publisher', model: publisherModel, tools: [publish] });
    const supervisorModel = new ScriptedChatModel([transfer('s1', 'publisher'), 'It is live.']);
    const team = createSupervisor({ supervisor: { model: supervisorModel }, agents: [publisher] });
    const runner = new Runner({ agent: team, sessionService: new MemorySessionService(), streaming: false });
    const paused = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'Publish it' }));
    const pause = paused.at(-1)?.interrupts?.[0];
    expect(pause?.value).toMatchObject({ type: 'tool-approval', agent: 'publisher' });
    expect(sent).toEqual([]);
    const resumed = await drain(runner.resume({ userId: 'u', sessionId: 's', decisions: true }));
    expect(branchTrace(resumed)).toEqual([
      'publisher@supervisor.publisher:result(publish)',
      'publisher@supervisor.publisher:assistant',
      'publisher@supervisor.publisher:transfer(supervisor)',
      'supervisor@supervisor:assistant',
      'supervisor:done',
    ]);
    expect(sent).toEqual(['Bees dance.']);
    expect([supervisorModel.calls.length, publisherModel.calls.length]).toEqual([2, 2]);
  });

  test('every turn starts at the supervisor; a worker named like the supervisor is refused', async () => {
    const { runner, supervisorModel } = newsroom({ extra: ['You are welcome.'] });
    await drain(runner.run({ userId: 'u', sessionId: 's', message: 'Write about bees' }));
    const second = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'Thanks!' }));
    expect(second[1]?.author).toBe('supervisor');
    expect(supervisorModel.calls).toHaveLength(4);
    const twin = new ChatModelAgent({ name: 'supervisor', model: new ScriptedChatModel([]) });
    expect(() => createSupervisor({ supervisor: { model: supervisorModel }, agents: [twin] })).toThrow(
      /two agents are named "supervisor"/,
    );
    expect(() => createSupervisor({ supervisor: { model: supervisorModel }, agents: [] })).toThrow(
      /at least one agent/,
    );
  });
});
