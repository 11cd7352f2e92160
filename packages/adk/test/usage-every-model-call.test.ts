import type { ModelCallEvent, RunEvent } from '@weft/compose';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { compaction } from '../src/context/index.js';
import {
  type AgentEvent,
  type ChatModel,
  ChatModelAgent,
  createTeam,
  MemorySessionService,
  Runner,
  type RunnerOptions,
} from '../src/index.js';
import { drain, ScriptedChatModel } from '../src/testing/index.js';

/**
 * Every model call made inside a run — not only the model node's — is a `model-call` event of the run
 * and counted in the turn's usage totals (which costs and OpenTelemetry traces read).
 */
async function turn(options: Pick<RunnerOptions, 'agent' | 'streaming'>, message: string, rounds = 1) {
  const calls: ModelCallEvent[] = [];
  const callbacks = {
    onEvent: (event: RunEvent) => {
      if (event.type === 'model-call') calls.push(event);
    },
  };
  const runner = new Runner({ streaming: false, ...options, sessionService: new MemorySessionService() });
  let events: AgentEvent[] = [];
  for (let round = 0; round < rounds; round++)
    events = await drain(
      runner.run({ userId: 'u', sessionId: 's', message: `${message} ${round}`, callbacks }),
    );
  return { calls, totals: events.at(-1)?.usageTotals };
}

/**
 * A scripted model that says who it is as a provider adapter does: its provider and the model id it
 * sends (`provider`, `modelId`), and, on each reply and each streamed chunk, the model id that answered.
 */
function identified(script: ScriptedChatModel, provider: string, modelId: string): ChatModel {
  const answeredBy = `${modelId}-2024-07-18`;
  return {
    name: `${provider}:${modelId}`,
    provider,
    modelId,
    generate: async (messages, options) => ({
      ...(await script.generate(messages, options)),
      modelId: answeredBy,
    }),
    async *stream(messages, options) {
      for await (const chunk of script.stream(messages, options)) yield { ...chunk, modelId: answeredBy };
    },
  };
}

const made = (...models: ScriptedChatModel[]) => models.reduce((sum, model) => sum + model.calls.length, 0);

describe('every model call of a run is on its stream and in its usage totals', () => {
  test("the output schema's repair call", async () => {
    const model = new ScriptedChatModel(['not json', '{"city":"Oslo"}'], { name: 'openai:gpt-4o-mini' });
    const agent = new ChatModelAgent({
      name: 'extract',
      model,
      outputSchema: z.object({ city: z.string() }),
    });
    const { calls, totals } = await turn({ agent }, 'Where?');
    expect(made(model)).toBe(2);
    expect(calls).toHaveLength(2);
    expect(totals?.calls).toBe(2);
    expect(totals?.byAgent.extract?.calls).toBe(2);
  });

  test("a hand-off's summary, counted for the agent that hands off", async () => {
    const triageModel = new ScriptedChatModel(
      [{ toolCalls: [{ id: 't1', name: 'transfer_to_agent', arguments: { agent_name: 'billing' } }] }],
      { name: 'triage-model' },
    );
    const summaryModel = new ScriptedChatModel(['The user wants a refund.'], { name: 'summary-model' });
    const billingModel = new ScriptedChatModel(['Refunded.'], { name: 'billing-model' });
    const billing = new ChatModelAgent({ name: 'billing', description: 'Refunds', model: billingModel });
    const triage = new ChatModelAgent({ name: 'triage', model: triageModel, subAgents: [billing] });
    const team = createTeam(triage, { handOffContext: { billing: 'summary' }, summaryModel });
    const { calls, totals } = await turn({ agent: team }, 'Refund please');
    expect(made(triageModel, summaryModel, billingModel)).toBe(3);
    expect(calls.map((c) => c.model).sort()).toEqual(['billing-model', 'summary-model', 'triage-model']);
    expect(totals?.calls).toBe(3);
    expect(totals?.byAgent.triage?.calls).toBe(2);
  });

  test("compaction's summary call", async () => {
    const model = new ScriptedChatModel(
      (_messages, _options, index) => `Answer ${index}: ${'words '.repeat(40)}`,
    );
    const cheap = new ScriptedChatModel((_messages, _options, index) => `Summary ${index}.`, {
      name: 'cheap',
    });
    const agent = new ChatModelAgent({
      name: 'chatty',
      model,
      middleware: [compaction({ model: cheap, thresholdTokens: 120, keepLastTurns: 1 })],
    });
    const { calls } = await turn({ agent }, 'Tell me more', 4);
    expect(cheap.calls.length).toBeGreaterThan(0);
    // The last turn's calls: the agent's own, and each summary it asked the cheap model for.
    const compactionCalls = calls.filter((c) => c.model === 'cheap');
    expect(compactionCalls).toHaveLength(cheap.calls.length);
    expect(compactionCalls.every((c) => c.agent === 'chatty' && c.usage !== undefined)).toBe(true);
  });
});

const identity = (call: ModelCallEvent) => [call.model, call.provider, call.requestModel, call.responseModel];

describe('every reported model call names its provider, the model id sent and the one that answered', () => {
  test("the model node's call, streamed and whole, and the output schema's repair call", async () => {
    for (const streaming of [true, false]) {
      const model = identified(new ScriptedChatModel(['not json', '{"city":"Oslo"}']), 'openai', 'gpt-4o');
      const agent = new ChatModelAgent({
        name: 'extract',
        model,
        outputSchema: z.object({ city: z.string() }),
      });
      const { calls } = await turn({ agent, streaming }, 'Where?');
      expect(calls.map((c) => c.streamed)).toEqual([streaming, false]);
      expect(calls.map(identity)).toEqual([
        ['openai:gpt-4o', 'openai', 'gpt-4o', 'gpt-4o-2024-07-18'],
        ['openai:gpt-4o', 'openai', 'gpt-4o', 'gpt-4o-2024-07-18'],
      ]);
    }
  });

  test("a hand-off's summary and compaction's summary (a hook's reportedModel) name their own model", async () => {
    const triageModel = identified(
      new ScriptedChatModel([
        { toolCalls: [{ id: 't1', name: 'transfer_to_agent', arguments: { agent_name: 'billing' } }] },
      ]),
      'openai',
      'gpt-4o',
    );
    const summaryModel = identified(new ScriptedChatModel(['Wants a refund.']), 'anthropic', 'claude-haiku');
    const cheap = identified(
      new ScriptedChatModel((_messages, _options, index) => `Summary ${index}.`),
      'gcp.gemini',
      'gemini-flash',
    );
    const billingModel = new ScriptedChatModel((_m, _o, index) => `Refund ${index}: ${'words '.repeat(40)}`, {
      name: 'plain',
    });
    const billing = new ChatModelAgent({
      name: 'billing',
      description: 'Refunds',
      model: billingModel,
      middleware: [compaction({ model: cheap, thresholdTokens: 120, keepLastTurns: 1 })],
    });
    const triage = new ChatModelAgent({ name: 'triage', model: triageModel, subAgents: [billing] });
    const team = createTeam(triage, { handOffContext: { billing: 'summary' }, summaryModel });
    const { calls } = await turn({ agent: team }, 'Refund please', 3);
    const byModel = new Map(calls.map((c) => [c.model, identity(c)]));
    expect(byModel.get('anthropic:claude-haiku')).toEqual([
      'anthropic:claude-haiku',
      'anthropic',
      'claude-haiku',
      'claude-haiku-2024-07-18',
    ]);
    expect(byModel.get('gcp.gemini:gemini-flash')).toEqual([
      'gcp.gemini:gemini-flash',
      'gcp.gemini',
      'gemini-flash',
      'gemini-flash-2024-07-18',
    ]);
    // A model that does not say who it is reports only its name.
    expect(byModel.get('plain')).toEqual(['plain', undefined, undefined, undefined]);
  });
});
