import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  ChatModelAgent,
  MemorySessionService,
  type MiddlewareContext,
  type RunEndContext,
  Runner,
  type RunnerPlugin,
  RunRefusedError,
  tool,
} from '../src/index.js';
import { drain, ScriptedChatModel } from '../src/testing/index.js';

const ref = { userId: 'u1', sessionId: 's1' };

describe('Runner hooks', () => {
  test('beforeRun refuses a turn with a typed error; nothing is stored', async () => {
    const sessionService = new MemorySessionService();
    const model = new ScriptedChatModel(['Hi.']);
    const runner = new Runner({
      agent: new ChatModelAgent({ name: 'desk', model }),
      sessionService,
      beforeRun: ({ tenantId }) => {
        if (tenantId !== 'acme') throw new RunRefusedError(`tenant ${tenantId} has no plan`);
      },
    });
    const error = await drain(runner.run({ ...ref, tenantId: 'other', message: 'Hi' })).catch(
      (e: unknown) => e,
    );
    expect(RunRefusedError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'RUN_REFUSED', reason: 'tenant other has no plan' });
    const session = await sessionService.get({ appName: 'desk', ...ref });
    expect(session).toMatchObject({ status: 'idle', turns: 0, events: [] });
    expect(model.calls).toHaveLength(0);
    await drain(runner.run({ ...ref, tenantId: 'acme', message: 'Hi' }));
    expect(model.calls).toHaveLength(1);
  });

  test('any other error of beforeRun is a refusal naming the hook', async () => {
    const runner = new Runner({
      agent: new ChatModelAgent({ name: 'desk', model: new ScriptedChatModel([]) }),
      sessionService: new MemorySessionService(),
      plugins: [
        {
          name: 'quota',
          beforeRun: () => {
            throw new Error('quota exhausted');
          },
        },
      ],
    });
    const error = await drain(runner.run({ ...ref, message: 'Hi' })).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'RUN_REFUSED', reason: 'quota exhausted' });
    expect((error as Error).message).toContain('plugin "quota"');
  });

  test('beforeRun loads per-turn configuration as temp keys; afterRun sees how the turn ended', async () => {
    const seen: unknown[] = [];
    const ended: RunEndContext[] = [];
    const plan = tool({
      name: 'plan',
      description: 'Reads the plan',
      parameters: z.object({}),
      execute: (_args, context) => {
        seen.push(context.state.get('temp:plan'));
        return 'ok';
      },
    });
    const model = new ScriptedChatModel([{ toolCalls: [{ name: 'plan', arguments: {} }] }, 'Done.']);
    const sessionService = new MemorySessionService();
    const runner = new Runner({
      agent: new ChatModelAgent({ name: 'desk', model, tools: [plan], instruction: 'Plan: {temp:plan}' }),
      sessionService,
      beforeRun: ({ tenantId }) => ({ temp: { 'temp:plan': tenantId === 'acme' ? 'pro' : 'free' } }),
      afterRun: (context) => {
        ended.push(context);
      },
    });
    await drain(runner.run({ ...ref, tenantId: 'acme', message: 'Go' }));
    expect(seen).toEqual(['pro']);
    expect(model.calls[0]?.messages[0]).toMatchObject({ content: 'Plan: pro' });
    expect(ended.map((e) => [e.outcome, e.tenantId])).toEqual([['completed', 'acme']]);
    expect((await sessionService.get({ appName: 'desk', ...ref }))?.state).toEqual({});
  });

  test('afterRun runs after a failed turn, with the error', async () => {
    const ended: RunEndContext[] = [];
    const runner = new Runner({
      agent: new ChatModelAgent({ name: 'desk', model: new ScriptedChatModel([]) }),
      sessionService: new MemorySessionService(),
      afterRun: (context) => {
        ended.push(context);
      },
    });
    await expect(drain(runner.run({ ...ref, message: 'Hi' }))).rejects.toThrow();
    expect(ended[0]?.outcome).toBe('failed');
    expect(ended[0]?.error).toBeInstanceOf(Error);
  });
});

describe('Runner plugins', () => {
  test('a plugin’s callbacks run for every agent of a team, outside each agent’s own middleware', async () => {
    const calls: string[] = [];
    const audit: RunnerPlugin = {
      name: 'audit',
      beforeAgent: (ctx) => void calls.push(`agent:${ctx.agentName}`),
      beforeModel: (_request, ctx) => void calls.push(`model:${ctx.agentName}`),
      afterTool: (result) => void calls.push(`tool:${result.name}`),
      afterRun: ({ outcome }) => void calls.push(`run:${outcome}`),
    };
    const own = {
      name: 'own',
      beforeModel: (_r: unknown, ctx: MiddlewareContext) => void calls.push(`own:${ctx.agentName}`),
    };
    const billing = new ChatModelAgent({
      name: 'billing',
      model: new ScriptedChatModel(['Refunded.']),
      middleware: [own],
    });
    const triage = new ChatModelAgent({
      name: 'triage',
      model: new ScriptedChatModel([
        { toolCalls: [{ name: 'transfer_to_agent', arguments: { agent_name: 'billing' } }] },
      ]),
      subAgents: [billing],
    });
    const runner = new Runner({
      agent: triage,
      sessionService: new MemorySessionService(),
      plugins: [audit],
    });
    await drain(runner.run({ ...ref, message: 'Refund' }));
    expect(calls).toEqual([
      'agent:triage',
      'model:triage',
      'tool:transfer_to_agent',
      'agent:billing',
      'model:billing',
      'own:billing',
      'run:completed',
    ]);
  });

  test('tenant, user and session ids reach tools, model adapters and middleware', async () => {
    const seen: Record<string, unknown> = {};
    const whoami = tool({
      name: 'whoami',
      description: 'Says who runs',
      parameters: z.object({}),
      execute: (_args, context) => {
        seen.tool = context.run;
        return 'ok';
      },
    });
    const model = new ScriptedChatModel([{ toolCalls: [{ name: 'whoami', arguments: {} }] }, 'Done.']);
    const runner = new Runner({
      agent: new ChatModelAgent({ name: 'desk', model, tools: [whoami] }),
      sessionService: new MemorySessionService(),
      plugins: [{ name: 'spy', beforeAgent: (ctx) => void (seen.middleware = ctx.sessionKey) }],
    });
    await drain(runner.run({ ...ref, tenantId: 'acme', message: 'Who am I?' }));
    const identity = { appName: 'desk', userId: 'u1', sessionId: 's1', tenantId: 'acme' };
    expect(seen.tool).toEqual(identity);
    expect(seen.middleware).toEqual(identity);
    expect(model.calls[0]?.options.run).toEqual(identity);
  });
});
