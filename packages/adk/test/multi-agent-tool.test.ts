import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { AgentTool, ChatModelAgent, MemorySessionService, messageText, Runner, tool } from '../src/index.js';
import { ScriptedChatModel } from '../src/testing/index.js';
import { drain, trail } from './multi-helpers.js';

const call = (id: string, name: string, args: Record<string, unknown> = {}) => ({
  toolCalls: [{ id, name, arguments: args }],
});

describe('AgentTool', () => {
  test('events reach the parent stream, state returns to the session, temp: keys and exits stay inside', async () => {
    const note = tool({
      name: 'note',
      description: 'notes',
      parameters: z.object({}),
      execute: (_args, ctx) => {
        ctx.state.set('topic', 'bees');
        ctx.state.set('temp:scratch', 'inner only');
        return 'noted';
      },
    });
    const helperModel = new ScriptedChatModel([
      call('h1', 'note'),
      call('h2', 'exit', { final_result: 'Bees dance to talk.' }),
    ]);
    const helper = new ChatModelAgent({
      name: 'helper',
      description: 'Answers research questions',
      model: helperModel,
      tools: [note],
      exitTool: true,
      outputKey: 'research',
    });
    let sawTemp: unknown = 'unset';
    const peek = tool({
      name: 'peek',
      description: 'peeks',
      parameters: z.object({}),
      execute: (_args, ctx) => {
        sawTemp = ctx.state.get('temp:scratch');
        return String(ctx.state.get('topic'));
      },
    });
    const hostModel = new ScriptedChatModel([
      call('p1', 'helper', { request: 'How do bees talk?' }),
      call('p2', 'peek'),
      'They dance.',
    ]);
    const host = new ChatModelAgent({ name: 'host', model: hostModel, tools: [new AgentTool(helper), peek] });
    const sessions = new MemorySessionService();
    const runner = new Runner({ agent: host, sessionService: sessions, streaming: false });
    const events = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'Tell me about bees' }));
    expect(trail(events)).toEqual([
      'user:user',
      'host:assistant',
      'helper@host.helper:assistant',
      'helper@host.helper:tool',
      'helper@host.helper:assistant',
      'helper@host.helper:tool',
      'helper@host.helper:stateDelta+exit',
      'host:tool',
      'host:assistant',
      'host:tool',
      'host:assistant',
      'host:done',
    ]);
    expect(helperModel.calls[0]?.messages.map((m) => messageText(m))).toEqual(['How do bees talk?']);
    expect(messageText(events[7]!.message!)).toBe('Bees dance to talk.');
    expect(hostModel.calls).toHaveLength(3);
    expect(sawTemp).toBeUndefined();
    expect(messageText(events[9]!.message!)).toBe('bees');
    const session = await sessions.get({ appName: 'host', userId: 'u', sessionId: 's' });
    expect(session?.state).toMatchObject({ topic: 'bees', research: 'Bees dance to talk.' });
    // The tools node carries the inner agent's graph, for drawing and the playground.
    const toolsNode = host
      .compile()
      .toJSON()
      .nodes.find((n) => n.id === 'tools');
    expect(toolsNode?.metadata?.agentTools).toMatchObject({ helper: { name: 'helper' } });
  });

  test('history "full" passes the caller’s conversation; an input schema reaches the agent as JSON', async () => {
    const innerModel = new ScriptedChatModel(['ok']);
    const inner = new ChatModelAgent({ name: 'inner', model: innerModel });
    const asTool = new AgentTool(inner, {
      history: 'full',
      inputSchema: z.object({ city: z.string() }),
      description: 'Looks a city up',
    });
    expect(asTool.spec).toMatchObject({ name: 'inner', description: 'Looks a city up' });
    const host = new ChatModelAgent({
      name: 'host',
      model: new ScriptedChatModel(['First answer.', call('c1', 'inner', { city: 'Oslo' }), 'done']),
      tools: [asTool],
    });
    const runner = new Runner({ agent: host, sessionService: new MemorySessionService(), streaming: false });
    await drain(runner.run({ userId: 'u', sessionId: 's', message: 'Hi' }));
    await drain(runner.run({ userId: 'u', sessionId: 's', message: 'Weather in Oslo?' }));
    expect(innerModel.calls[0]?.messages.map((m) => messageText(m))).toEqual([
      'Hi',
      'For context: [host] said: First answer.',
      'Weather in Oslo?',
      '{"city":"Oslo"}',
    ]);
  });

  test('an approval inside an agent tool two levels deep pauses the parent and resumes inside', async () => {
    const charges: string[] = [];
    const charge = tool({
      name: 'charge',
      description: 'charges a card',
      parameters: z.object({ amount: z.number() }),
      needsApproval: true,
      execute: ({ amount }) => {
        charges.push(`charged ${amount}`);
        return `charged ${amount}`;
      },
    });
    const payModel = new ScriptedChatModel([call('i1', 'charge', { amount: 30 }), 'Payment done.']);
    const pay = new ChatModelAgent({ name: 'pay', model: payModel, tools: [charge] });
    const shopModel = new ScriptedChatModel([call('m1', 'pay', { request: 'charge 30' }), 'Order placed.']);
    const shop = new ChatModelAgent({ name: 'shop', model: shopModel, tools: [new AgentTool(pay)] });
    const hostModel = new ScriptedChatModel([call('o1', 'shop', { request: 'buy it' }), 'Bought.']);
    const host = new ChatModelAgent({ name: 'host', model: hostModel, tools: [new AgentTool(shop)] });
    const runner = new Runner({ agent: host, sessionService: new MemorySessionService(), streaming: false });
    const paused = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'Buy the book' }));
    const pause = paused.at(-1)?.interrupts?.[0];
    expect(pause?.value).toMatchObject({ type: 'tool-approval', agent: 'pay', calls: [{ name: 'charge' }] });
    expect(pause?.path).toEqual(['tools', 'tools', 'tools']);
    expect(charges).toEqual([]);
    const resumed = await drain(
      runner.resume({ userId: 'u', sessionId: 's', decisions: { [pause!.id]: true } }),
    );
    expect(charges).toEqual(['charged 30']);
    expect(trail(resumed)).toEqual([
      'pay@host.shop.pay:tool',
      'pay@host.shop.pay:assistant',
      'shop@host.shop:tool',
      'shop@host.shop:assistant',
      'host:tool',
      'host:assistant',
      'host:done',
    ]);
    // Nothing ran twice: each model was called once per step.
    expect([hostModel.calls.length, shopModel.calls.length, payModel.calls.length]).toEqual([2, 2, 2]);
  });
  test('a plain tool in the same batch as a paused agent tool runs once, its state writes kept', async () => {
    const visits: string[] = [];
    const logVisit = tool({
      name: 'log_visit',
      description: 'records the visit',
      parameters: z.object({ page: z.string() }),
      execute: ({ page }, ctx) => {
        visits.push(page);
        ctx.state.set('last_page', page);
        return `logged ${page}`;
      },
    });
    const charge = tool({
      name: 'charge',
      description: 'charges a card',
      parameters: z.object({ amount: z.number() }),
      needsApproval: true,
      execute: ({ amount }) => `charged ${amount}`,
    });
    const payModel = new ScriptedChatModel([call('i1', 'charge', { amount: 5 }), 'Paid.']);
    const pay = new ChatModelAgent({ name: 'pay', model: payModel, tools: [charge] });
    const hostModel = new ScriptedChatModel([
      {
        toolCalls: [
          { id: 'v1', name: 'log_visit', arguments: { page: 'checkout' } },
          { id: 'p1', name: 'pay', arguments: { request: 'charge 5' } },
        ],
      },
      'All done.',
    ]);
    const host = new ChatModelAgent({
      name: 'host',
      model: hostModel,
      tools: [logVisit, new AgentTool(pay)],
    });
    const sessions = new MemorySessionService();
    const runner = new Runner({ agent: host, sessionService: sessions, streaming: false });
    const paused = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'Check out' }));
    const pause = paused.at(-1)?.interrupts?.[0];
    expect(pause?.value).toMatchObject({ type: 'tool-approval', agent: 'pay' });
    expect(visits).toEqual(['checkout']);
    await drain(runner.resume({ userId: 'u', sessionId: 's', decisions: { [pause!.id]: true } }));
    expect(visits).toEqual(['checkout']);
    const session = await sessions.get({ appName: 'host', userId: 'u', sessionId: 's' });
    expect(session?.state).toMatchObject({ last_page: 'checkout' });
    const toolResults = (session?.events ?? [])
      .filter((e) => e.author === 'host' && e.message?.role === 'tool')
      .map((e) => messageText(e.message!));
    expect(toolResults).toEqual(['logged checkout', 'Paid.']);
  });
  test('an agent tool sees the state its caller wrote earlier in the same invocation', async () => {
    const note = tool({
      name: 'note',
      description: 'notes the topic',
      parameters: z.object({}),
      execute: (_args, ctx) => {
        ctx.state.set('topic', 'bees');
        return 'noted';
      },
    });
    let seen: unknown = 'unset';
    const peek = tool({
      name: 'peek',
      description: 'reads the topic',
      parameters: z.object({}),
      execute: (_args, ctx) => {
        seen = ctx.state.get('topic');
        return String(seen);
      },
    });
    const helper = new ChatModelAgent({
      name: 'helper',
      description: 'reads',
      model: new ScriptedChatModel([call('h1', 'peek'), 'Read it.']),
      tools: [peek],
    });
    const hostModel = new ScriptedChatModel([
      call('n1', 'note'),
      call('a1', 'helper', { request: 'read' }),
      'Done.',
    ]);
    const host = new ChatModelAgent({ name: 'host', model: hostModel, tools: [note, new AgentTool(helper)] });
    const runner = new Runner({ agent: host, sessionService: new MemorySessionService(), streaming: false });
    await drain(runner.run({ userId: 'u', sessionId: 's', message: 'go' }));
    expect(seen).toBe('bees');
  });
});
