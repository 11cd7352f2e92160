import { ChatModelAgent, MemorySessionService, modelRegistry, Runner, tool, userMessage } from '@weft/adk';
import { AnthropicChatModel } from '@weft/adk/anthropic';
import { OpenAIChatModel } from '@weft/adk/openai';
import { drain, startAnthropicServer, startOpenAICompatibleServer } from '@weft/adk/testing';
import type { RunEvent } from '@weft/compose';
import { afterEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { memoryTracing, only, spanTree } from './helpers.js';

const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()));
});

/** An OpenAI-compatible loopback server that names a dated model in its replies, like OpenAI does. */
async function openaiServer(script: Parameters<typeof startOpenAICompatibleServer>[0]['script']) {
  const server = await startOpenAICompatibleServer({ script, model: 'gpt-4o-mini-2024-07-18' });
  closing.push(() => server.close());
  return server;
}

const add = tool({
  name: 'add',
  description: 'Adds two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});
const addCall = { toolCalls: [{ id: 'call_1', name: 'add', arguments: { a: 1, b: 2 } }] };

describe('the OpenTelemetry GenAI conventions', () => {
  test('an agent run is an invoke_agent span; chat spans name the model id sent, the reply model and the provider', async () => {
    const server = await openaiServer([addCall, 'It is 3.']);
    const models = modelRegistry({
      openai: (id) => new OpenAIChatModel({ model: id, baseURL: server.baseURL, apiKey: 'test' }),
    });
    const agent = new ChatModelAgent({
      name: 'calc',
      description: 'Adds numbers',
      model: 'openai:gpt-4o-mini',
      models,
      tools: [add],
    });
    const { exporter, tracing } = memoryTracing();
    await agent.graph.invoke({ messages: [userMessage('What is 1 + 2?')] } as never, {
      callbacks: tracing.callbacks(),
    });
    const spans = exporter.getFinishedSpans();
    expect(spanTree(spans).slice(0, 6)).toEqual([
      'run calc',
      '  invoke_agent calc',
      '    step 0',
      '      node init',
      '    step 1',
      '      node model',
    ]);
    expect(only(spans, 'invoke_agent calc').attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'calc',
      'gen_ai.agent.description': 'Adds numbers',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o-mini',
    });
    const chats = spans.filter((s) => s.name.startsWith('chat'));
    expect(chats.map((s) => s.name)).toEqual(['chat gpt-4o-mini', 'chat gpt-4o-mini']);
    expect(chats[0]?.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.response.model': 'gpt-4o-mini-2024-07-18',
      'weft.model': 'openai:gpt-4o-mini',
    });
  });

  test('streamed replies (through a Runner) and the Anthropic adapter report the same', async () => {
    const anthropic = await startAnthropicServer({ script: ['Hello from Claude.'] });
    closing.push(() => anthropic.close());
    const model = new AnthropicChatModel({ model: 'claude-test', baseURL: anthropic.url, apiKey: 'k' });
    const agent = new ChatModelAgent({ name: 'poet', model });
    const { exporter, tracing } = memoryTracing();
    const runner = new Runner({ agent, sessionService: new MemorySessionService() });
    await drain(runner.run({ userId: 'u', sessionId: 's', message: 'Hi', callbacks: tracing.callbacks() }));
    const chat = only(exporter.getFinishedSpans(), 'chat claude-test');
    expect(chat.attributes).toMatchObject({
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'claude-test',
      'gen_ai.response.model': 'claude-test',
    });
    expect(only(exporter.getFinishedSpans(), 'invoke_agent poet').attributes).toMatchObject({
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'claude-test',
    });
  });

  test('a failing tool records its exception, and error.type is the error class or code', async () => {
    class RateLimited extends Error {
      override name = 'RateLimited';
    }
    const flaky = tool({
      name: 'flaky',
      description: 'Fails',
      parameters: z.object({ how: z.enum(['class', 'code', 'slow']) }),
      timeoutMs: 50,
      execute: async ({ how }, context) => {
        if (how === 'class') throw new RateLimited('try again later');
        if (how === 'code') throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
        await new Promise((resolve) => context.signal.addEventListener('abort', resolve));
        return 'never';
      },
    });
    const server = await openaiServer([
      {
        toolCalls: [
          { id: 'c1', name: 'flaky', arguments: { how: 'class' } },
          { id: 'c2', name: 'flaky', arguments: { how: 'code' } },
          { id: 'c3', name: 'flaky', arguments: { how: 'slow' } },
          { id: 'c4', name: 'missing', arguments: {} },
        ],
      },
      'Sorry.',
    ]);
    const model = new OpenAIChatModel({ model: 'gpt-4o-mini', baseURL: server.baseURL, apiKey: 'test' });
    const agent = new ChatModelAgent({ name: 'ops', model, tools: [flaky] });
    const { exporter, tracing } = memoryTracing();
    await agent.graph.invoke({ messages: [userMessage('go')] } as never, { callbacks: tracing.callbacks() });
    const calls = exporter
      .getFinishedSpans()
      .filter((s) => s.name.startsWith('execute_tool'))
      .sort((a, b) =>
        String(a.attributes['gen_ai.tool.call.id']).localeCompare(
          String(b.attributes['gen_ai.tool.call.id']),
        ),
      );
    expect(calls.map((s) => [s.attributes['gen_ai.tool.call.id'], s.attributes['error.type']])).toEqual([
      ['c1', 'RateLimited'],
      ['c2', 'ENOENT'],
      ['c3', 'TOOL_TIMEOUT'],
      ['c4', 'TOOL_NOT_FOUND'],
    ]);
    for (const span of calls) {
      expect(span.status.code).toBe(2);
      const exception = span.events.find((e) => e.name === 'exception');
      expect(exception?.attributes?.['exception.type']).toBeTypeOf('string');
    }
    const first = calls[0]!.events.find((e) => e.name === 'exception');
    expect(first?.attributes).toMatchObject({
      'exception.type': 'RateLimited',
      'exception.message': 'try again later',
    });
  });

  test('tracing registered once on the Runner traces every turn; per-call callbacks still apply', async () => {
    const server = await openaiServer(['One.', 'Two.']);
    const model = new OpenAIChatModel({ model: 'gpt-4o-mini', baseURL: server.baseURL, apiKey: 'test' });
    const agent = new ChatModelAgent({ name: 'desk', model });
    const { exporter, tracing } = memoryTracing();
    const runner = new Runner({
      agent,
      sessionService: new MemorySessionService(),
      callbacks: (turn) => tracing.callbacks({ conversationId: turn.sessionId }),
    });
    await drain(runner.run({ userId: 'u', sessionId: 's1', message: 'first' }));
    const seen: RunEvent['type'][] = [];
    await drain(
      runner.run({
        userId: 'u',
        sessionId: 's2',
        message: 'second',
        callbacks: { onEvent: (event) => seen.push(event.type) },
      }),
    );
    const agents = exporter.getFinishedSpans().filter((s) => s.name === 'invoke_agent desk');
    expect(agents.map((s) => s.attributes['gen_ai.conversation.id'])).toEqual(['s1', 's2']);
    expect(new Set(agents.map((s) => s.spanContext().traceId)).size).toBe(2);
    expect(seen).toContain('model-call');
    expect(seen.at(-1)).toBe('run-end');
  });
});
