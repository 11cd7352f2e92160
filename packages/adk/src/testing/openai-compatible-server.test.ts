import { afterEach, describe, expect, it } from 'vitest';
import { type OpenAICompatibleServer, startOpenAICompatibleServer } from './openai-compatible-server.js';

let server: OpenAICompatibleServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

function post(body: unknown): Promise<Response> {
  return fetch(`${server?.baseURL}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

function events(text: string): string[] {
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => block.slice('data: '.length));
}

describe('startOpenAICompatibleServer', () => {
  it('listens on 127.0.0.1 with an ephemeral port', async () => {
    server = await startOpenAICompatibleServer({ script: [] });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.baseURL).toBe(`${server.url}/v1`);
  });

  it('answers a plain request with a chat completion and records it', async () => {
    server = await startOpenAICompatibleServer({
      script: [{ toolCalls: [{ name: 'f', arguments: { x: 1 } }] }],
    });
    const response = await post({ model: 'mine', messages: [{ role: 'user', content: 'hi' }] });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({
      object: 'chat.completion',
      model: 'mine',
      choices: [
        {
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'call_0_0', function: { name: 'f', arguments: '{"x":1}' } }],
          },
        },
      ],
    });
    expect(server.requests).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: '/v1/chat/completions',
        body: { model: 'mine', messages: [{ role: 'user', content: 'hi' }] },
      }),
    ]);
  });

  it('streams SSE: role, text pieces, tool-call header and argument fragments, finish, usage, [DONE]', async () => {
    server = await startOpenAICompatibleServer({
      script: [{ text: 'abcdef', toolCalls: [{ id: 'c', name: 'f', arguments: '{"q":"xyz"}' }] }],
      chunkSize: 2,
    });
    const response = await post({
      model: 'm',
      messages: [],
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const data = events(await response.text());
    expect(data.at(-1)).toBe('[DONE]');
    const chunks = data.slice(0, -1).map((line) => JSON.parse(line));
    const deltas = chunks.map((chunk) => chunk.choices[0]?.delta);
    expect(deltas[0]).toEqual({ role: 'assistant', content: '' });
    expect(deltas.filter((delta) => delta?.content).map((delta) => delta.content)).toEqual([
      'ab',
      'cd',
      'ef',
    ]);
    const fragments = deltas.flatMap((delta) => delta?.tool_calls ?? []);
    expect(fragments[0]).toMatchObject({ index: 0, id: 'c', function: { name: 'f', arguments: '' } });
    expect(
      fragments
        .slice(1)
        .map((fragment) => fragment.function.arguments)
        .join(''),
    ).toBe('{"q":"xyz"}');
    expect(fragments.length).toBeGreaterThan(2);
    expect(chunks.at(-2).choices[0].finish_reason).toBe('tool_calls');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { total_tokens: expect.any(Number) } });
  });

  it('sends the usage chunk only when asked', async () => {
    server = await startOpenAICompatibleServer({ script: ['hi'] });
    const data = events(await (await post({ messages: [], stream: true })).text());
    expect(data.some((line) => line.includes('"usage"'))).toBe(false);
  });

  it('answers scripted errors with their status and headers, and a script function', async () => {
    server = await startOpenAICompatibleServer({
      script: (request, index) =>
        index === 0
          ? { error: { status: 429, headers: { 'retry-after': '1' } } }
          : `echo ${String(request.body.model)}`,
    });
    const limited = await post({ model: 'a' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(await limited.json()).toMatchObject({ error: { type: 'rate_limit_error' } });
    const ok = await (await post({ model: 'b' })).json();
    expect(ok).toMatchObject({ choices: [{ message: { content: 'echo b' } }] });
  });

  it('answers 400 naming the request number when the script runs out, and 404 for other routes', async () => {
    server = await startOpenAICompatibleServer({ script: ['one'] });
    await post({});
    const exhausted = await post({});
    expect(exhausted.status).toBe(400);
    expect(await exhausted.json()).toMatchObject({
      error: { message: expect.stringMatching(/no reply scripted for chat-completions request #1/) },
    });
    expect((await fetch(`${server.url}/v2/other`)).status).toBe(404);
    expect(await (await fetch(`${server.baseURL}/models`)).json()).toMatchObject({ object: 'list' });
  });
});
