// Reasoning round-trips in a two-turn conversation through the Runner: the reasoning a model wrote in
// the first turn (kept in the session's history) goes back to it, in its provider's format, in the second.

import { simulateReadableStream } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, describe, expect, it } from 'vitest';
import { type ChatModel, ChatModelAgent, MemorySessionService, Runner } from '../src/index.js';
import { fromAiSdk } from '../src/model/ai-sdk/index.js';
import { AnthropicChatModel } from '../src/model/anthropic/index.js';
import { OpenAIChatModel } from '../src/model/openai/index.js';
import { drain, startAnthropicServer, startOpenAIResponsesServer } from '../src/testing/index.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function twoTurns(model: ChatModel, streaming: boolean): Promise<void> {
  const agent = new ChatModelAgent({ name: 'thinker', model });
  const runner = new Runner({ agent, sessionService: new MemorySessionService(), streaming });
  await drain(runner.run({ userId: 'u', sessionId: 's', message: 'What is 6 × 7?' }));
  await drain(runner.run({ userId: 'u', sessionId: 's', message: 'And doubled?' }));
}

describe.each([false, true])('reasoning over two turns (streaming: %s)', (streaming) => {
  it('Anthropic: the signed thinking block of turn one is sent back in turn two', async () => {
    const server = await startAnthropicServer({
      script: [{ thinking: [{ text: 'Six sevens.', signature: 'sig-turn-1' }], text: '42' }, '84'],
    });
    closers.push(() => server.close());
    await twoTurns(
      new AnthropicChatModel({
        baseURL: server.url,
        apiKey: 'k',
        model: 'claude-test',
        thinking: { budgetTokens: 1024 },
        env: {},
      }),
      streaming,
    );
    expect(server.requests[1]?.body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'What is 6 × 7?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Six sevens.', signature: 'sig-turn-1' },
          { type: 'text', text: '42' },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'And doubled?' }] },
    ]);
  });

  it('OpenAI Responses: the reasoning item of turn one (id and encrypted content) is sent back in turn two', async () => {
    const server = await startOpenAIResponsesServer({
      script: [{ reasoning: { summary: ['Six sevens.'], encrypted: 'enc-turn-1' }, text: '42' }, '84'],
    });
    closers.push(() => server.close());
    await twoTurns(
      new OpenAIChatModel({
        baseURL: `${server.url}/v1`,
        apiKey: 'k',
        model: 'gpt-test',
        api: 'responses',
        reasoning: { effort: 'low' },
        env: {},
      }),
      streaming,
    );
    expect(server.requests[1]?.body.input).toEqual([
      { role: 'user', content: 'What is 6 × 7?' },
      {
        type: 'reasoning',
        id: 'rs_0',
        summary: [{ type: 'summary_text', text: 'Six sevens.' }],
        encrypted_content: 'enc-turn-1',
      },
      { role: 'assistant', content: '42' },
      { role: 'user', content: 'And doubled?' },
    ]);
  });

  it('AI SDK bridge: the reasoning part of turn one goes back with its provider metadata as provider options', async () => {
    const usage = {
      inputTokens: { total: 5, noCache: 5, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 3, text: 1, reasoning: 2 },
    };
    const finishReason = { unified: 'stop' as const, raw: 'stop' };
    const answer = (text: string, reasoning?: string) => ({
      content: [
        ...(reasoning === undefined
          ? []
          : [
              {
                type: 'reasoning' as const,
                text: reasoning,
                providerMetadata: { google: { thoughtSignature: 'ts-1' } },
              },
            ]),
        { type: 'text' as const, text },
      ],
      finishReason,
      usage,
      warnings: [],
    });
    const streamed = (text: string, reasoning?: string) => ({
      stream: simulateReadableStream({
        chunks: [
          ...(reasoning === undefined
            ? []
            : [
                { type: 'reasoning-start' as const, id: 'r' },
                { type: 'reasoning-delta' as const, id: 'r', delta: reasoning },
                {
                  type: 'reasoning-end' as const,
                  id: 'r',
                  providerMetadata: { google: { thoughtSignature: 'ts-1' } },
                },
              ]),
          { type: 'text-delta' as const, id: 't', delta: text },
          { type: 'finish' as const, usage, finishReason },
        ],
        initialDelayInMs: null,
        chunkDelayInMs: null,
      }),
    });
    const mock = new MockLanguageModelV3({
      doGenerate: [answer('42', 'Six sevens.'), answer('84')],
      doStream: [streamed('42', 'Six sevens.'), streamed('84')],
    });
    await twoTurns(fromAiSdk(mock), streaming);
    const second = (streaming ? mock.doStreamCalls : mock.doGenerateCalls)[1];
    expect(second?.prompt[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'Six sevens.', providerOptions: { google: { thoughtSignature: 'ts-1' } } },
        { type: 'text', text: '42' },
      ],
    });
  });
});
