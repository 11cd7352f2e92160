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

async function turns(options: Pick<RunnerOptions, 'agent' | 'streaming'>, rounds = 1) {
  const calls: ModelCallEvent[] = [];
  const onEvent = (event: RunEvent) => {
    if (event.type === 'model-call') calls.push(event);
  };
  const runner = new Runner({ ...options, sessionService: new MemorySessionService() });
  let events: AgentEvent[] = [];
  for (let round = 0; round < rounds; round++)
    events = await drain(
      runner.run({ userId: 'u', sessionId: 's', message: `Go ${round}`, callbacks: { onEvent } }),
    );
  return { calls, events };
}

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
      const { calls } = await turns({ agent, streaming });
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
    const { calls } = await turns({ agent: team, streaming: false }, 3);
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
