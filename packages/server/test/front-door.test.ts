// The front door: Host allow-list (DNS rebinding), Origin checks and configurable CORS, JSON writes,
// body cap, health/readiness/OpenAPI routes, the per-user run limit, and binding beyond loopback only
// with an auth hook.
import { request } from 'node:http';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type ServedServer, serve, WeftServerError } from '../src/index.js';
import { chatGraph, Gate, slowGraph } from './fixtures/graphs.js';
import { startServer } from './fixtures/start.js';

let served: ServedServer;
const gate = new Gate();

beforeAll(async () => {
  ({ served } = await startServer({
    graphs: { chat: chatGraph(), slow: slowGraph(() => gate) },
    guard: { allowedOrigins: ['https://app.example.com'], maxBodyBytes: 2048 },
    limits: { concurrentRunsPerUser: 1 },
  }));
});
afterAll(async () => {
  gate.open();
  await served.close();
});

/** A raw request, so the Host header can be anything. */
function raw(options: { method?: string; path: string; headers?: Record<string, string>; body?: string }) {
  const url = new URL(served.url);
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          method: options.method ?? 'GET',
          path: options.path,
          headers: options.headers,
        },
        (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        },
      );
      req.on('error', reject);
      req.end(options.body);
    },
  );
}

test('a Host that is not this server (DNS rebinding) is refused', async () => {
  expect((await raw({ path: '/assistants/chat', headers: { host: 'evil.example.com' } })).status).toBe(403);
  expect(
    (await raw({ path: '/assistants/chat', headers: { host: `localhost:${new URL(served.url).port}` } }))
      .status,
  ).toBe(200);
});

test('other origins are refused; a configured origin gets CORS headers and preflights', async () => {
  const evil = await fetch(`${served.url}/threads/search`, {
    method: 'POST',
    headers: { origin: 'https://evil.example.com', 'content-type': 'application/json' },
    body: '{}',
  });
  expect(evil.status).toBe(403);
  const preflight = await fetch(`${served.url}/threads`, {
    method: 'OPTIONS',
    headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST' },
  });
  expect(preflight.status).toBe(204);
  expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Last-Event-ID/);
  const allowed = await fetch(`${served.url}/threads`, {
    method: 'POST',
    headers: { origin: 'https://app.example.com', 'content-type': 'application/json' },
    body: '{}',
  });
  expect(allowed.status).toBe(200);
  expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
  expect(allowed.headers.get('access-control-expose-headers')).toMatch(/Content-Location/);
});

test('writes with a body must be JSON, and bodies over the cap are refused', async () => {
  const form = await fetch(`${served.url}/threads`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'a=1',
  });
  expect(form.status).toBe(415);
  const big = await fetch(`${served.url}/threads`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ metadata: { blob: 'x'.repeat(4096) } }),
  });
  expect(big.status).toBe(413);
  const bad = await fetch(`${served.url}/threads`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"metadata": 3}',
  });
  expect(bad.status).toBe(422);
  expect(((await bad.json()) as { message: string }).message).toMatch(/"metadata" must be an object/);
});

test('health, readiness and the OpenAPI document are served', async () => {
  expect(await (await fetch(`${served.url}/ok`)).json()).toEqual({ ok: true });
  expect(await (await fetch(`${served.url}/ready`)).json()).toEqual({ ready: true });
  const document = (await (await fetch(`${served.url}/openapi.json`)).json()) as {
    openapi: string;
    paths: object;
  };
  expect(document.openapi).toBe('3.1.0');
  expect(Object.keys(document.paths)).toContain('/threads/{thread_id}/runs/stream');
});

test('a user may have only so many runs pending or running at once (429)', async () => {
  const create = (threadId: string) =>
    fetch(`${served.url}/threads/${threadId}/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ assistant_id: 'slow', input: { log: [] } }),
    });
  const newThread = async () =>
    ((await (await fetch(`${served.url}/threads`, { method: 'POST' })).json()) as { thread_id: string })
      .thread_id;
  expect((await create(await newThread())).status).toBe(200);
  await gate.arrived();
  const refused = await create(await newThread());
  expect(refused.status).toBe(429);
  expect(((await refused.json()) as { message: string }).message).toMatch(/at most 1 runs/);
});

test('binding beyond loopback without an auth hook is refused', async () => {
  const attempt = serve({ graphs: { chat: chatGraph() }, host: '0.0.0.0', port: 0 });
  await expect(attempt).rejects.toSatisfy(
    (error: unknown) => WeftServerError.isInstance(error) && error.code === 'INVALID_ARGUMENT',
  );
});
