import { MemorySessionService, type Message, messageText, Runner, tool } from '@weft/adk';
import { ScriptedChatModel } from '@weft/adk/testing';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  createPlanExecute,
  EXECUTED_STEPS_KEY,
  PLAN_INPUT_KEY,
  PLAN_KEY,
  type PlanExecuteOptions,
} from '../src/index.js';
import { branchTrace, drain, sent } from './helpers.js';

const call = (id: string, name: string, args: Record<string, unknown>) => ({
  toolCalls: [{ id, name, arguments: args }],
});

function population(options: { fail?: boolean; approve?: boolean } = {}) {
  return tool({
    name: 'population',
    description: 'The population of a city',
    parameters: z.object({ city: z.string() }),
    ...(options.approve ? { needsApproval: true } : {}),
    execute: ({ city }) => {
      if (options.fail) throw new Error(`no data for ${city}`);
      return `${city}: 709 000`;
    },
  });
}

function setup(
  scripts: { planner: unknown[]; executor: unknown[]; replanner: unknown[] },
  extra: Partial<PlanExecuteOptions> & { tools?: ReturnType<typeof population>[] } = {},
) {
  const planner = new ScriptedChatModel(scripts.planner as never);
  const executor = new ScriptedChatModel(scripts.executor as never);
  const replanner = new ScriptedChatModel(scripts.replanner as never);
  const { tools, ...rest } = extra;
  const agent = createPlanExecute({
    planner: { model: planner },
    executor: { model: executor, tools: tools ?? [population()] },
    replanner: { model: replanner },
    ...rest,
  });
  const sessions = new MemorySessionService();
  const runner = new Runner({ agent, sessionService: sessions, streaming: false });
  const session = async () =>
    (await sessions.get({ appName: 'plan_execute', userId: 'u', sessionId: 's' }))?.state ?? {};
  return { agent, runner, session, models: { planner, executor, replanner } };
}

const happyScripts = () => ({
  planner: [call('p1', 'plan', { steps: ['Find the population of Oslo', 'Halve it'] })],
  executor: [call('e1', 'population', { city: 'Oslo' }), 'Oslo has 709 000 people.', 'Half is 354 500.'],
  replanner: [
    call('r1', 'plan', { steps: ['Halve 709 000'] }),
    call('r2', 'respond', { response: 'Half of Oslo is about 354 500 people.' }),
  ],
});

describe('createPlanExecute', () => {
  test('happy path: plan, execute each open step, replan, respond', async () => {
    const { runner, session, models } = setup(happyScripts());
    const events = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'Half of Oslo?' }));
    // The sequence the playground draws.
    expect(branchTrace(events)).toEqual([
      'user:user',
      'planner@plan_execute.planner:calls(plan)',
      'planner@plan_execute.planner:result(plan)',
      'executor@plan_execute.executor:calls(population)',
      'executor@plan_execute.executor:result(population)',
      'executor@plan_execute.executor:assistant',
      'executor@plan_execute.executor:delta',
      'replanner@plan_execute.replanner:calls(plan)',
      'replanner@plan_execute.replanner:result(plan)',
      'executor@plan_execute.executor:assistant',
      'executor@plan_execute.executor:delta',
      'replanner@plan_execute.replanner:calls(respond)',
      'replanner@plan_execute.replanner:result(respond)',
      'plan_execute:assistant',
      'plan_execute:done',
    ]);
    expect(messageText(events.at(-2)?.message as Message)).toBe('Half of Oslo is about 354 500 people.');
    // The executed step is recorded (and leaves the plan) when the executor finishes.
    expect(events[6]?.actions.stateDelta).toEqual({
      [EXECUTED_STEPS_KEY]: [{ step: 'Find the population of Oslo', result: 'Oslo has 709 000 people.' }],
      [PLAN_KEY]: ['Halve it'],
    });
    expect(await session()).toMatchObject({
      [PLAN_INPUT_KEY]: 'Half of Oslo?',
      [PLAN_KEY]: [],
      [EXECUTED_STEPS_KEY]: [
        { step: 'Find the population of Oslo', result: 'Oslo has 709 000 people.' },
        { step: 'Halve 709 000', result: 'Half is 354 500.' },
      ],
    });
    // The executor is told the open step; the replanner sees what was done and what is left.
    const executorPrompt = messageText(models.executor.calls[2]?.messages[0] as Message);
    expect(executorPrompt).toContain('Objective: Half of Oslo?');
    expect(executorPrompt).toMatch(/Do only this step now, and reply with its result: Halve 709 000$/);
    const replannerPrompt = messageText(models.replanner.calls[0]?.messages[0] as Message);
    expect(replannerPrompt).toContain('1. Find the population of Oslo\n   Result: Oslo has 709 000 people.');
    expect(replannerPrompt).toContain('Steps still to do:\n1. Halve it');
    expect(models.planner.calls[0]?.options.toolChoice).toBe('required');
    expect(models.replanner.calls[0]?.options.tools?.map((t) => t.name)).toEqual(['plan', 'respond']);
  });

  test('a plan that needs revision: a failed step is replanned and done another way', async () => {
    const { runner, session, models } = setup(
      {
        planner: [call('p1', 'plan', { steps: ['Look up the population of Oslo'] })],
        executor: [
          call('e1', 'population', { city: 'Oslo' }),
          'The population service has no data for Oslo.',
          'Statistics Norway says 709 000.',
        ],
        replanner: [
          call('r1', 'plan', { steps: ['Ask Statistics Norway for the population of Oslo'] }),
          call('r2', 'respond', { response: 'Oslo has about 709 000 people.' }),
        ],
      },
      { tools: [population({ fail: true })] },
    );
    const events = await drain(
      runner.run({ userId: 'u', sessionId: 's', message: 'How many live in Oslo?' }),
    );
    const failed = events.find((e) => e.message?.role === 'tool' && e.message.name === 'population');
    expect(failed?.message).toMatchObject({ status: 'error' });
    expect(sent(models.executor, 1).at(-1)).toContain('no data for Oslo');
    expect((await session())[EXECUTED_STEPS_KEY]).toEqual([
      { step: 'Look up the population of Oslo', result: 'The population service has no data for Oslo.' },
      { step: 'Ask Statistics Norway for the population of Oslo', result: 'Statistics Norway says 709 000.' },
    ]);
    expect(events.at(-2)?.author).toBe('plan_execute');
    expect(messageText(events.at(-2)?.message as Message)).toBe('Oslo has about 709 000 people.');
  });

  test('pause and resume: an executor tool that needs approval pauses the plan; resuming goes on', async () => {
    const { runner, models } = setup(
      {
        planner: [call('p1', 'plan', { steps: ['Find the population of Oslo'] })],
        executor: [call('e1', 'population', { city: 'Oslo' }), 'Oslo has 709 000 people.'],
        replanner: [call('r1', 'respond', { response: '709 000.' })],
      },
      { tools: [population({ approve: true })] },
    );
    const paused = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'Oslo?' }));
    expect(branchTrace(paused).slice(-2)).toEqual([
      'executor@plan_execute.executor:calls(population)',
      'plan_execute:pause',
    ]);
    expect(paused.at(-1)?.interrupts?.[0]?.value).toMatchObject({ type: 'tool-approval', agent: 'executor' });
    const resumed = await drain(runner.resume({ userId: 'u', sessionId: 's', decisions: true }));
    expect(branchTrace(resumed)).toEqual([
      'executor@plan_execute.executor:result(population)',
      'executor@plan_execute.executor:assistant',
      'executor@plan_execute.executor:delta',
      'replanner@plan_execute.replanner:calls(respond)',
      'replanner@plan_execute.replanner:result(respond)',
      'plan_execute:assistant',
      'plan_execute:done',
    ]);
    expect([models.planner.calls.length, models.executor.calls.length]).toEqual([1, 2]);
  });

  test('the loop ends after maxIterations executor runs; a planner that answers without a plan ends at once', async () => {
    const { agent, models } = setup(
      {
        planner: [call('p1', 'plan', { steps: ['Step'] })],
        executor: Array.from({ length: 5 }, (_, i) => `result ${i}`),
        replanner: Array.from({ length: 5 }, (_, i) => call(`r${i}`, 'plan', { steps: ['Again'] })),
      },
      { maxIterations: 3 },
    );
    const state = await agent.compile().invoke({ input: 'loop' });
    expect(models.executor.calls).toHaveLength(3);
    expect(models.replanner.calls).toHaveLength(3);
    expect(state.stateDelta[EXECUTED_STEPS_KEY]).toHaveLength(3);
    const direct = setup({ planner: ['Hello! Nothing to plan.'], executor: [], replanner: [] });
    const answered = await direct.agent.compile().invoke({ input: 'hi' });
    expect(answered.output).toBe('Hello! Nothing to plan.');
    expect(direct.models.executor.calls).toHaveLength(0);
  });

  test('a second turn plans anew; validation names what is wrong', async () => {
    const scripts = happyScripts();
    scripts.planner.push(call('p2', 'plan', { steps: ['Find the population of Bergen'] }));
    scripts.executor.push('Bergen has 291 000 people.');
    scripts.replanner.push(call('r3', 'respond', { response: 'About 291 000.' }));
    const { runner, session, models } = setup(scripts);
    await drain(runner.run({ userId: 'u', sessionId: 's', message: 'Half of Oslo?' }));
    await drain(runner.run({ userId: 'u', sessionId: 's', message: 'And Bergen?' }));
    expect(await session()).toMatchObject({
      [PLAN_INPUT_KEY]: 'And Bergen?',
      [EXECUTED_STEPS_KEY]: [{ step: 'Find the population of Bergen', result: 'Bergen has 291 000 people.' }],
    });
    // The first turn's answer is part of the conversation the planner sees next.
    expect(sent(models.planner, 1)).toContain(
      'For context: [plan_execute] said: Half of Oslo is about 354 500 people.',
    );
    const model = new ScriptedChatModel([]);
    expect(() =>
      createPlanExecute({ planner: { model }, executor: { model, name: 'planner' }, replanner: { model } }),
    ).toThrow(/distinct names/);
    expect(() =>
      createPlanExecute({ planner: { model }, executor: { model }, replanner: { model }, maxIterations: 0 }),
    ).toThrow(/maxIterations/);
  });
});
