import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  type AgentMiddleware,
  ChatModelAgent,
  GuardrailTripwireError,
  guardrails,
  MemorySessionService,
  messageText,
  Runner,
  tool,
} from '../src/index.js';
import { drain, ScriptedChatModel } from '../src/testing/index.js';

const ref = { userId: 'u1', sessionId: 's1' };

function runnerWith(
  model: ScriptedChatModel,
  middleware: AgentMiddleware[],
  extra: { tools?: never[] } = {},
) {
  const refund = tool({
    name: 'refund',
    description: 'Refund an amount',
    parameters: z.object({ amount: z.number() }),
    execute: ({ amount }) => `refunded ${amount}`,
  });
  void extra;
  const sessionService = new MemorySessionService();
  const agent = new ChatModelAgent({ name: 'desk', model, tools: [refund], middleware, outputKey: 'answer' });
  return { runner: new Runner({ agent, sessionService, streaming: false }), sessionService };
}

const tripOn = (word: string) => ({
  name: `no-${word}`,
  execute: ({ input }: { input: string }) => ({
    tripwireTriggered: input.includes(word),
    outputInfo: { word },
  }),
});

describe('guardrails', () => {
  test('an input tripwire stops the turn before the model is called, with a typed error', async () => {
    const model = new ScriptedChatModel(['Sure.']);
    const { runner, sessionService } = runnerWith(model, [guardrails({ input: [tripOn('homework')] })]);
    const error = await drain(runner.run({ ...ref, message: 'Do my homework' })).catch((e: unknown) => e);
    expect(GuardrailTripwireError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      kind: 'input',
      guardrail: 'no-homework',
      outputInfo: { word: 'homework' },
    });
    expect(model.calls).toHaveLength(0);
    const last = (await sessionService.get({ appName: 'desk', ...ref }))?.events.at(-1);
    expect(last?.error?.code).toBe('GUARDRAIL_TRIPWIRE');
    await drain(runner.run({ ...ref, message: 'Hello' }));
    expect(model.calls).toHaveLength(1);
  });

  test('a parallel input guardrail runs alongside the first model call and drops its answer', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const model = new ScriptedChatModel(() => {
      release();
      return 'Here is your essay.';
    });
    const slow = {
      name: 'slow-check',
      runInParallel: true,
      execute: async () => {
        await gate; // resolves only once the model has been called: the two overlap
        return { tripwireTriggered: true };
      },
    };
    const { runner, sessionService } = runnerWith(model, [guardrails({ input: [slow] })]);
    await expect(drain(runner.run({ ...ref, message: 'Essay please' }))).rejects.toMatchObject({
      code: 'GUARDRAIL_TRIPWIRE',
    });
    expect(model.calls).toHaveLength(1);
    const events = (await sessionService.get({ appName: 'desk', ...ref }))?.events ?? [];
    expect(events.some((e) => e.message?.role === 'assistant')).toBe(false);
  });

  test('an output guardrail checks the final answer', async () => {
    const model = new ScriptedChatModel(['Call me at 555-1234.']);
    const phone = {
      name: 'no-phone',
      execute: ({ output }: { output: unknown }) => ({
        tripwireTriggered: /\d{3}-\d{4}/.test(String(output)),
      }),
    };
    const { runner } = runnerWith(model, [guardrails({ output: [phone] })]);
    await expect(drain(runner.run({ ...ref, message: 'Number?' }))).rejects.toMatchObject({
      code: 'GUARDRAIL_TRIPWIRE',
      kind: 'output',
    });
  });

  test('tool guardrails reject a call (the model reads why) or replace a result', async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: 'refund', arguments: { amount: 500 } }] },
      { toolCalls: [{ name: 'refund', arguments: { amount: 20 } }] },
      'Refunded 20.',
    ]);
    const limit = {
      name: 'limit',
      tools: ['refund'],
      execute: ({ call }: { call: { arguments: string } }) =>
        (JSON.parse(call.arguments) as { amount: number }).amount > 100
          ? { behavior: 'reject' as const, message: 'Refunds over 100 need a manager.' }
          : { behavior: 'allow' as const },
    };
    const redact = {
      name: 'redact',
      execute: () => ({ behavior: 'reject' as const, message: 'refund done (details hidden)' }),
    };
    const { runner } = runnerWith(model, [guardrails({ toolInput: [limit], toolOutput: [redact] })]);
    const events = await drain(runner.run({ ...ref, message: 'Refund me' }));
    const results = events.filter((e) => e.message?.role === 'tool').map((e) => messageText(e.message!));
    expect(results).toEqual(['Refunds over 100 need a manager.', 'refund done (details hidden)']);
  });

  test('a tool tripwire stops the turn', async () => {
    const model = new ScriptedChatModel([{ toolCalls: [{ name: 'refund', arguments: { amount: 1 } }] }]);
    const never = {
      name: 'frozen',
      execute: () => ({ behavior: 'tripwire' as const, outputInfo: 'account frozen' }),
    };
    const { runner } = runnerWith(model, [guardrails({ toolInput: [never] })]);
    await expect(drain(runner.run({ ...ref, message: 'Refund' }))).rejects.toMatchObject({
      code: 'GUARDRAIL_TRIPWIRE',
      kind: 'toolInput',
      outputInfo: 'account frozen',
    });
  });
});

describe('beforeAgent and afterAgent', () => {
  test('beforeAgent skips the agent with a given reply', async () => {
    const model = new ScriptedChatModel(['never']);
    const closed: AgentMiddleware = { beforeAgent: () => ({ skip: 'We are closed until 8am.' }) };
    const { runner, sessionService } = runnerWith(model, [closed]);
    const events = await drain(runner.run({ ...ref, message: 'Hi' }));
    expect(model.calls).toHaveLength(0);
    const replies = events.filter((e) => e.message?.role === 'assistant').map((e) => messageText(e.message!));
    expect(replies).toEqual(['We are closed until 8am.']);
    expect((await sessionService.get({ appName: 'desk', ...ref }))?.state).toMatchObject({
      answer: 'We are closed until 8am.',
    });
  });

  test('afterAgent replaces the output (and what outputKey stores)', async () => {
    const model = new ScriptedChatModel(['raw answer']);
    const polish: AgentMiddleware = {
      afterAgent: (_ctx, output) => ({ output: `${String(output)} (checked)` }),
    };
    const { runner, sessionService } = runnerWith(model, [polish]);
    await drain(runner.run({ ...ref, message: 'Hi' }));
    expect((await sessionService.get({ appName: 'desk', ...ref }))?.state).toMatchObject({
      answer: 'raw answer (checked)',
    });
  });
});
