import { ChatModelAgent } from '@weft/adk';
import { ScriptedChatModel } from '@weft/adk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type A2aServer, createA2aHandler, serveA2a, WeftA2aError } from '../src/index.js';
import { sdkClient, sendOf, userText } from './fixtures/clients.js';

const agent = () => new ChatModelAgent({ name: 'guarded', model: new ScriptedChatModel(['ok', 'ok', 'ok']) });
const send = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'SendMessage',
  params: { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hi' }] } },
});
/** What the handler answers, read loosely. */
type Answer = {
  readonly error: { readonly code: string | number };
  readonly result: { readonly id: string; readonly task: { readonly id: string } };
  readonly securitySchemes: unknown;
  readonly securityRequirements: unknown;
};
const read = async (response: Response): Promise<Answer> => (await response.json()) as Answer;
const post = (url: string, headers: Record<string, string> = {}, body = send) =>
  new Request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...headers },
    body,
  });

let server: A2aServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('the same front door as every Weft listener', () => {
  const handler = createA2aHandler({ agent: agent(), guard: { maxBodyBytes: 2048 } });

  it('refuses a Host that is not a loopback name (DNS rebinding) and answers loopback ones', async () => {
    const refused = await handler.fetch(
      new Request('http://attacker.example:80/.well-known/agent-card.json'),
    );
    expect(refused.status).toBe(403);
    expect((await read(refused)).error.code).toBe('FORBIDDEN_HOST');
    const ok = await handler.fetch(new Request('http://localhost:8000/.well-known/agent-card.json'));
    expect(ok.status).toBe(200);
  });

  it('refuses writes from another origin, and writes that are not JSON', async () => {
    const foreign = await handler.fetch(post('http://127.0.0.1:8000/', { origin: 'https://evil.example' }));
    expect(foreign.status).toBe(403);
    const form = await handler.fetch(post('http://127.0.0.1:8000/', { 'content-type': 'text/plain' }));
    expect(form.status).toBe(415);
    const same = await handler.fetch(post('http://127.0.0.1:8000/', { origin: 'http://127.0.0.1:8000' }));
    expect(same.status).toBe(200);
  });

  it('caps the body, declared or streamed', async () => {
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'GetTask',
      params: { id: 'x'.repeat(4096) },
    });
    const declared = await handler.fetch(post('http://127.0.0.1:8000/', {}, big));
    expect(declared.status).toBe(413);
    const chunked = new Request('http://127.0.0.1:8000/', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new Blob([big]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect((await handler.fetch(chunked)).status).toBe(413);
  });

  it('requires the bearer token when told to, declares it on the card, and keeps each principal’s tasks apart', async () => {
    const token = 'a-token-of-twenty-characters';
    const guarded = createA2aHandler({ agent: agent(), auth: { token, required: true } });
    expect((await guarded.fetch(post('http://127.0.0.1:8000/'))).status).toBe(401);
    expect(
      (
        await guarded.fetch(
          post('http://127.0.0.1:8000/', { authorization: 'Bearer wrong-token-wrong-token' }),
        )
      ).status,
    ).toBe(401);
    expect(
      (await guarded.fetch(post('http://127.0.0.1:8000/', { authorization: `Bearer ${token}` }))).status,
    ).toBe(200);
    const card = await read(
      await guarded.fetch(
        new Request('http://127.0.0.1:8000/.well-known/agent-card.json', {
          headers: { 'a2a-version': '1.0' },
        }),
      ),
    );
    expect(card.securitySchemes).toEqual({
      bearer: { httpAuthSecurityScheme: { scheme: 'Bearer', description: 'Authorization: Bearer <token>' } },
    });
    expect(card.securityRequirements).toEqual([{ schemes: { bearer: {} } }]);

    const principals = createA2aHandler({
      agent: agent(),
      auth: { authenticate: (t) => ({ 'token-of-alice-0000': 'alice', 'token-of-bob-000000': 'bob' })[t] },
    });
    const created = await read(
      await principals.fetch(post('http://127.0.0.1:8000/', { authorization: 'Bearer token-of-alice-0000' })),
    );
    const get = (who: string) =>
      principals.fetch(
        post(
          'http://127.0.0.1:8000/',
          { authorization: `Bearer ${who}` },
          JSON.stringify({
            jsonrpc: '2.0',
            id: 2,
            method: 'GetTask',
            params: { id: created.result.task.id },
          }),
        ),
      );
    expect((await read(await get('token-of-alice-0000'))).result.id).toBe(created.result.task.id);
    expect((await read(await get('token-of-bob-000000'))).error.code).toBe(-32001); // not bob's
  });

  it('makes and requires a token when bound beyond loopback', async () => {
    server = await serveA2a({ agent: agent(), port: 0, host: '0.0.0.0' });
    expect(server.token).toMatch(/^[\w-]{32}$/);
    const url = server.url.replace('0.0.0.0', '127.0.0.1');
    expect((await fetch(post(url))).status).toBe(401);
    const client = await sdkClient(url, server.token);
    const task = await client.sendMessage(sendOf(userText('hi')));
    expect('status' in task && task.status?.state).toBe(3);
  });

  it('refuses a short token and a required token that is missing', () => {
    expect(() => createA2aHandler({ agent: agent(), auth: { token: 'short' } })).toThrow(WeftA2aError);
    expect(() => createA2aHandler({ agent: agent(), auth: { required: true } })).toThrow(/token is required/);
  });
});
