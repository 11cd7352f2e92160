// Completion webhooks: signed with the server's secret, retried with backoff when the receiver fails,
// and never holding up the run; refused when the server sends none or not to that host.
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type ServedServer, webhookSignature } from '../src/index.js';
import { chatGraph } from './fixtures/graphs.js';
import { startServer } from './fixtures/start.js';

const secret = 'webhook-secret-0123456789';
let receiver: Server;
let hookUrl: string;
const deliveries: Array<{ body: string; signature: string }> = [];
let failuresLeft = 0;
let release: (() => void) | undefined;
let arrived: (() => void) | undefined;

beforeAll(async () => {
  receiver = createHttpServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      deliveries.push({ body, signature: String(req.headers['x-weft-signature']) });
      arrived?.();
      const answer = () => {
        res.statusCode = failuresLeft-- > 0 ? 500 : 200;
        res.end();
      };
      if (release === undefined) answer();
      else void new Promise<void>((resolve) => (release = resolve)).then(answer);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

const nextDelivery = () => new Promise<void>((resolve) => (arrived = resolve));

test('a run end is POSTed signed, retried with backoff after failures', async () => {
  const { served, client } = await startServer({
    graphs: { chat: chatGraph() },
    webhooks: { secret, backoffMs: 10 },
  });
  try {
    failuresLeft = 2;
    deliveries.length = 0;
    const thread = await client.threads.create();
    const seen = new Promise<void>((resolve) => {
      arrived = () => {
        if (deliveries.length === 3) resolve();
      };
    });
    await client.runs.wait(thread.thread_id, 'chat', {
      input: { messages: [{ role: 'user', content: 'hi' }] },
      webhook: hookUrl,
    });
    await seen;
    expect(deliveries).toHaveLength(3);
    const last = deliveries[2]!;
    const payload = JSON.parse(last.body) as { status: string; thread_id: string; values: { turns: number } };
    expect(payload).toMatchObject({ status: 'success', thread_id: thread.thread_id, values: { turns: 1 } });
    const time = Number(/t=(\d+)/.exec(last.signature)?.[1]);
    expect(last.signature).toBe(webhookSignature(secret, last.body, time));
  } finally {
    await served.close();
  }
});

test('a receiver that never answers does not hold up the run', async () => {
  const { served, client } = await startServer({ graphs: { chat: chatGraph() }, webhooks: { secret } });
  try {
    deliveries.length = 0;
    failuresLeft = 0;
    release = () => undefined; // hold every answer until released
    const delivered = nextDelivery();
    const thread = await client.threads.create();
    const result = await client.runs.wait(thread.thread_id, 'chat', {
      input: { messages: [{ role: 'user', content: 'hi' }] },
      webhook: hookUrl,
    });
    expect(result).toMatchObject({ turns: 1 });
    await delivered;
    expect((await client.threads.get(thread.thread_id)).status).toBe('idle');
  } finally {
    release?.();
    release = undefined;
    await served.close();
  }
});

test('webhooks are refused when the server sends none, or not to that host', async () => {
  let served: ServedServer | undefined;
  const plain = await startServer({ graphs: { chat: chatGraph() } });
  try {
    const thread = await plain.client.threads.create();
    await expect(
      plain.client.runs.create(thread.thread_id, 'chat', { input: {}, webhook: hookUrl }),
    ).rejects.toMatchObject({
      status: 422,
    });
    const limited = await startServer({
      graphs: { chat: chatGraph() },
      webhooks: { secret, allowedHosts: ['hooks.example.com'] },
    });
    served = limited.served;
    const other = await limited.client.threads.create();
    await expect(
      limited.client.runs.create(other.thread_id, 'chat', { input: {}, webhook: hookUrl }),
    ).rejects.toMatchObject({
      status: 403,
    });
  } finally {
    await plain.served.close();
    await served?.close();
  }
});
