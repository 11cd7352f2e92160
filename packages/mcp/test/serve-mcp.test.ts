import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { McpHttpEndpoint } from '../src/index.js';
import { servedFixture } from './fixtures/served.js';

interface ToolReply {
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

let endpoint: McpHttpEndpoint;
beforeAll(async () => {
  endpoint = await servedFixture().listen();
});
afterAll(() => endpoint.close());

const tsx = fileURLToPath(new URL('../../../node_modules/tsx/dist/loader.mjs', import.meta.url));
const transports: Record<string, () => Transport> = {
  'Streamable HTTP': () =>
    new StreamableHTTPClientTransport(new URL(endpoint.url), {
      requestInit: { headers: { authorization: `Bearer ${endpoint.token}` } },
    }),
  stdio: () =>
    new StdioClientTransport({
      command: process.execPath,
      args: [
        '--conditions=@weft/source',
        '--import',
        tsx,
        fileURLToPath(new URL('fixtures/serve-stdio.ts', import.meta.url)),
      ],
      stderr: 'pipe',
    }),
};

describe.each(Object.keys(transports))('serveMcp over %s, with the SDK client', (kind) => {
  let client: Client;
  // the stdio server is a TypeScript child process (tsx): slow to start on a loaded machine
  beforeAll(async () => {
    client = new Client({ name: 'test', version: '1' });
    await client.connect(transports[kind]!(), { timeout: 120_000 });
  }, 120_000);
  afterAll(() => client.close());
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as ToolReply;

  test('lists agents and graphs as tools, graphs with their input schema', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['support', 'confirm', 'add', 'weft_resume']);
    const add = tools.find((t) => t.name === 'add')!;
    expect(add.description).toBe('Adds a and b');
    expect(add.inputSchema).toMatchObject({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
    });
    expect(tools[0]?.inputSchema.required).toEqual(['message']);
  });

  test('runs a graph and an agent conversation over several calls', async () => {
    const sum = await call('add', { a: 2, b: 3 });
    expect(sum.structuredContent).toMatchObject({ status: 'done', output: { a: 2, b: 3, sum: 5 } });
    const first = await call('support', { message: 'hello' });
    expect(first.content[0]?.text).toBe('You said "hello" (turn 1).');
    const threadId = first.structuredContent?.thread_id as string;
    const second = await call('support', { message: 'again', thread_id: threadId });
    expect(second.content[0]?.text).toBe('You said "again" (turn 2).');
  });

  test('an interrupt surfaces as a structured result, and weft_resume answers it', async () => {
    const paused = await call('confirm', { n: 21 });
    expect(paused.isError).toBeFalsy();
    expect(paused.structuredContent).toMatchObject({
      status: 'interrupted',
      answer_with: 'weft_resume',
      interrupts: [{ id: expect.any(String), value: { question: 'double 21?' } }],
    });
    const threadId = paused.structuredContent?.thread_id as string;
    const done = await call('weft_resume', { thread_id: threadId, answer: { ok: true, by: 'dana' } });
    expect(done.structuredContent).toMatchObject({
      status: 'done',
      output: { n: 21, doubled: 42, by: 'dana' },
    });
  });

  test("with approveTools: 'caller', an agent's tool approval round-trips: approved, the tool runs", async () => {
    const paused = await call('support', { message: 'refund A-17' });
    const interrupts = paused.structuredContent?.interrupts as Array<{ id: string; value: { type: string } }>;
    expect(interrupts[0]?.value).toMatchObject({ type: 'tool-approval', calls: [{ name: 'refund' }] });
    const done = await call('weft_resume', { thread_id: paused.structuredContent?.thread_id, answer: true });
    expect(done.content[0]?.text).toBe('Done: refunded A-17.');
  });

  test('bad calls are isError results naming the problem', async () => {
    const unknown = await call('weft_resume', { thread_id: 'nowhere:1', answer: true });
    expect(unknown).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/Unknown thread_id "nowhere:1"/) }],
    });
    const invalid = await call('add', { a: 'two', b: 1 });
    expect(invalid.isError).toBe(true);
    expect(invalid.content[0]?.text).toMatch(/Tool "add" failed: .*a/);
  });
});

describe('the HTTP endpoint guards', () => {
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  const post = (headers: Record<string, string>, body = initialize) =>
    fetch(endpoint.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${endpoint.token}`,
        ...headers,
      },
      body,
    });

  test('binds loopback, refuses foreign Host and Origin headers and oversized bodies', async () => {
    expect(new URL(endpoint.url).hostname).toBe('127.0.0.1');
    expect((await post({})).status).toBe(200);
    expect((await post({ origin: 'https://evil.example' })).status).toBe(403);
    const port = new URL(endpoint.url).port;
    expect((await post({ origin: `http://localhost:${port}` })).status).toBe(200);
    // fetch sets Host itself; a rebinding attack arrives with the attacker's host name
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        endpoint.url,
        {
          method: 'POST',
          headers: {
            host: `evil.example:${port}`,
            'content-type': 'application/json',
            authorization: `Bearer ${endpoint.token}`,
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(initialize);
    });
    expect(status).toBe(403);
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'ping',
      params: { pad: 'x'.repeat(1024 * 1024) },
    });
    expect((await post({}, big)).status).toBe(413);
  });
});
