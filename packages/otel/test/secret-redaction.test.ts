import { ChatModelAgent, MemorySessionService, Runner } from '@weft/adk';
import { OpenAIChatModel } from '@weft/adk/openai';
import { drain, startLoopbackServer } from '@weft/adk/testing';
import { END, MemoryCheckpointer, START, StateGraph } from '@weft/compose';
import { expect, test } from 'vitest';
import { z } from 'zod';
import { memoryTracing } from './helpers.js';

/** A key only this test knows, shaped like an OpenAI project key. */
const KEY = `sk-proj-weftTest${'0123456789abcdef'.repeat(2)}`;
const TOKEN = 'tok_live_8c1d4f2a9b7e6c3d';

/**
 * Issue #52: a 401 whose body echoes the API key put the key in OpenTelemetry spans (10 times, even with
 * `captureContent: false`), in the playground's answers and in the stores. Here the real `openai` client
 * talks to a loopback server that answers 401 echoing the key it was sent; a tool's failure quotes a
 * bearer token. Nothing Weft writes may hold either.
 */
test('a 401 echoing the API key, and a tool error quoting a token, leave no secret in spans, stores or errors', async () => {
  const server = await startLoopbackServer((request) => ({
    error: { status: 401 },
    body: {
      error: {
        message: `Incorrect API key provided: ${request.headers.authorization?.replace('Bearer ', '')}. You can find your API key at https://platform.openai.com/account/api-keys.`,
        type: 'invalid_request_error',
        code: 'invalid_api_key',
      },
    },
  }));
  try {
    const { exporter, tracing } = memoryTracing({ captureContent: false });
    const model = new OpenAIChatModel({ model: 'gpt-4o-mini', apiKey: KEY, baseURL: `${server.url}/v1` });
    const sessionService = new MemorySessionService();
    const checkpointer = new MemoryCheckpointer();
    const agent = new ChatModelAgent({ name: 'desk', model });
    const runner = new Runner({
      agent,
      sessionService,
      checkpointer,
      callbacks: tracing.callbacks(),
      threadOf: () => 'runner-thread',
    });
    const error = await drain(runner.run({ userId: 'u1', sessionId: 's1', message: 'Hi' })).catch(
      (caught: unknown) => caught,
    );
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(error).toBeInstanceOf(Error);
    expect(String((error as Error).message)).toContain('Incorrect API key provided: [REDACTED]');

    // A node of a durable graph fails quoting a bearer token (its stored failure and its span).
    const graph = new StateGraph(z.object({ customer: z.string().optional() }))
      .addNode('crm', () => {
        throw new Error(`CRM answered 403 for Authorization: Bearer ${TOKEN}`);
      })
      .addEdge(START, 'crm')
      .addEdge('crm', END)
      .compile({ checkpointer });
    const failing = await graph
      .invoke({}, { threadId: 't-node', callbacks: tracing.callbacks() })
      .catch((caught: unknown) => caught);
    expect(String((failing as Error).message)).not.toContain(TOKEN);

    const spans = exporter.getFinishedSpans().map((span) => ({
      name: span.name,
      attributes: span.attributes,
      status: span.status,
      events: span.events.map((event) => ({ name: event.name, attributes: event.attributes })),
    }));
    expect(spans.length).toBeGreaterThan(0);
    const spanText = JSON.stringify(spans);
    expect(spanText).toContain('[REDACTED]');
    expect(spanText).not.toContain(KEY);
    expect(spanText).not.toContain(TOKEN);
    const session = await sessionService.get({ appName: runner.appName, userId: 'u1', sessionId: 's1' });
    expect(JSON.stringify(session)).not.toContain(KEY);
    const stored: string[] = [];
    for (const thread of ['t-node', 'runner-thread']) {
      for (const record of await checkpointer.list(thread)) {
        const full = await checkpointer.get(thread, { id: record.id, ns: record.ns });
        stored.push(JSON.stringify(full));
      }
    }
    expect(stored.join('\n')).not.toContain(KEY);
    expect(stored.join('\n')).not.toContain(TOKEN);
    expect(stored.join('\n')).toContain('[REDACTED]');
  } finally {
    await server.close();
  }
});
