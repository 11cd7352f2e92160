import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ChatModelAgent, messageText, tool } from '@weft/adk';
import { ScriptedChatModel } from '@weft/adk/testing';
import { afterEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { type McpHttpEndpoint, serveMcp, WeftMcpError } from '../src/index.js';
import { servedFixture } from './fixtures/served.js';

interface ToolReply {
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

const endpoints: McpHttpEndpoint[] = [];
const clients: Client[] = [];
const transports = new Map<Client, StreamableHTTPClientTransport>();
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(endpoints.splice(0).map((endpoint) => endpoint.close()));
});

/** Connects a client sending `token` (default: the endpoint's; `null`: none). */
async function connect(
  endpoint: McpHttpEndpoint,
  token: string | null | undefined = endpoint.token,
): Promise<Client> {
  const client = new Client({ name: 'test', version: '1' });
  const headers: Record<string, string> = token == null ? {} : { authorization: `Bearer ${token}` };
  const transport = new StreamableHTTPClientTransport(new URL(endpoint.url), { requestInit: { headers } });
  await client.connect(transport);
  clients.push(client);
  transports.set(client, transport);
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as ToolReply;

/** An agent whose `wipe_disk` tool needs approval (issue #52: a caller approved its own call, and it ran). */
function wiper(wiped: string[]) {
  const wipe = tool({
    name: 'wipe_disk',
    description: 'Erases a disk',
    parameters: z.object({ disk: z.string() }),
    needsApproval: true,
    execute: ({ disk }) => {
      wiped.push(disk);
      return `wiped ${disk}`;
    },
  });
  const model = new ScriptedChatModel((messages) => {
    const last = messages.at(-1)!;
    if (last.role === 'tool') return `Result: ${messageText(last)}`;
    return { toolCalls: [{ name: 'wipe_disk', arguments: { disk: 'sda' } }] };
  });
  return new ChatModelAgent({ name: 'ops', model, tools: [wipe] });
}

describe('serveMcp over HTTP: who may call, for how long, and what', () => {
  test('requires the bearer token it made, also on loopback; refuses a wrong one', async () => {
    const endpoint = await servedFixture().listen();
    endpoints.push(endpoint);
    expect(endpoint.token).toMatch(/^[\w-]{32}$/);
    await expect(connect(endpoint, null)).rejects.toThrow(/401|bearer token/);
    await expect(connect(endpoint, 'x'.repeat(32))).rejects.toThrow(/401|bearer token/);
    const client = await connect(endpoint);
    expect((await call(client, 'add', { a: 1, b: 2 })).structuredContent).toMatchObject({ status: 'done' });
  });

  test('will not bind a non-loopback interface without a token', async () => {
    const served = servedFixture();
    await expect(served.listen({ host: '0.0.0.0', token: false })).rejects.toSatisfy(
      (error) => WeftMcpError.isInstance(error) && /token is required/.test(error.message),
    );
    const endpoint = await served.listen({ host: '0.0.0.0', allowedHosts: ['127.0.0.1:0'] });
    endpoints.push(endpoint);
    expect(endpoint.token).toBeDefined();
  });

  test('caps open sessions and closes idle ones', async () => {
    const endpoint = await servedFixture().listen({ maxSessions: 2, sessionIdleMs: 60_000 });
    endpoints.push(endpoint);
    await connect(endpoint);
    await connect(endpoint);
    expect(endpoint.sessions).toBe(2);
    await expect(connect(endpoint)).rejects.toThrow(/503|too many open MCP sessions/);
    // A client that ends its session (DELETE) frees its place at once.
    await transports.get(clients[0]!)!.terminateSession();
    expect(endpoint.sessions).toBe(1);
    await connect(endpoint);

    // An idle limit of 1 ms: a session is expired by the next one that needs its place (raw
    // initialize requests, so no follow-up request of the SDK client meets an expired session).
    const brief = await servedFixture().listen({ maxSessions: 1, sessionIdleMs: 1 });
    endpoints.push(brief);
    const initialize = () =>
      fetch(brief.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${brief.token}`,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 'raw', version: '1' },
          },
        }),
      });
    const first = await initialize();
    await first.text();
    expect(first.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await initialize();
    await second.text();
    // The first one was idle past its limit (closed by the sweep or to make room): the second fits.
    expect(second.status).toBe(200);
    expect(brief.sessions).toBeLessThanOrEqual(1);
    const stale = await fetch(brief.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${brief.token}`,
        'mcp-session-id': first.headers.get('mcp-session-id') ?? '',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
    });
    expect(stale.status).toBe(404);
  });

  test('a thread belongs to the session that made it: another session can neither continue nor resume it', async () => {
    const endpoint = await servedFixture().listen();
    endpoints.push(endpoint);
    const alice = await connect(endpoint);
    const mallory = await connect(endpoint);
    const paused = await call(alice, 'confirm', { n: 2 });
    const threadId = paused.structuredContent?.thread_id as string;
    const stolen = await call(mallory, 'weft_resume', { thread_id: threadId, answer: { ok: true, by: 'm' } });
    expect(stolen).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/Unknown thread_id/) }],
    });
    const chat = await call(alice, 'support', { message: 'hello' });
    const chatThread = chat.structuredContent?.thread_id as string;
    const hijack = await call(mallory, 'support', { message: 'me too', thread_id: chatThread });
    expect(hijack.isError).toBe(true);
    const done = await call(alice, 'weft_resume', { thread_id: threadId, answer: { ok: true, by: 'alice' } });
    expect(done.structuredContent).toMatchObject({ status: 'done', output: { doubled: 4, by: 'alice' } });
  });

  test('the caller cannot approve its own needsApproval tool; the server approver can', async () => {
    const wiped: string[] = [];
    const refusing = await serveMcp({ agents: [wiper(wiped)] }).listen();
    endpoints.push(refusing);
    const client = await connect(refusing);
    const reply = await call(client, 'ops', { message: 'wipe it' });
    // Never paused for the caller to answer: refused by default, and the model was told so.
    expect(reply.structuredContent).toMatchObject({ status: 'done' });
    expect(reply.content[0]?.text).toMatch(/not approved|cannot approve/);
    expect(wiped).toEqual([]);

    const asked: string[] = [];
    const approving = await serveMcp({
      agents: [wiper(wiped)],
      approveTools: (request) => {
        asked.push(request.calls.map((c) => c.name).join(','));
        return true;
      },
    }).listen();
    endpoints.push(approving);
    const approved = await call(await connect(approving), 'ops', { message: 'wipe it' });
    expect(approved.content[0]?.text).toBe('Result: wiped sda');
    expect(asked).toEqual(['wipe_disk']);
    expect(wiped).toEqual(['sda']);
  });
});
