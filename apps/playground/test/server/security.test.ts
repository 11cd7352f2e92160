// The attacks of issue #19 (1): a web page the user visits must not drive the playground, neither by
// cross-site requests nor by DNS rebinding (its own name re-pointed at 127.0.0.1).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoApp } from '../../src/server/demo/demo-app.ts';
import { type PlaygroundServer, startServer } from '../../src/server/server.ts';
import { authorization, type Harness, startHarness } from './harness.ts';
import { rawRequest } from './raw-http.ts';

let h: Harness;
let host: string;
beforeAll(async () => {
  h = await startHarness();
  host = new URL(h.server.url).host;
});
afterAll(() => h.close());

/** What a page on http://evil.example sends with `fetch(url, { method, mode: 'no-cors', body })`. */
const crossSite = {
  origin: 'http://evil.example',
  'sec-fetch-site': 'cross-site',
  'content-type': 'text/plain',
};

/**
 * A request as a browser sends it with the playground's cookie (a page of this origin, or another site's
 * in a browser that would send it): the checks below the token are what these tests exercise.
 */
const send = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
  rawRequest(h.server.url, {
    method,
    path,
    headers: { host, cookie: `weft-token-${h.server.port}=${h.server.token}`, ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

describe('a cross-site page cannot drive the playground', () => {
  it('cannot create a thread with a text/plain POST, with or without Origin headers', async () => {
    const before = (await h.request('GET', '/api/threads?graphId=counter-loop')).body.length;
    const attack = await send('POST', '/api/threads', crossSite, { graphId: 'counter-loop' });
    expect(attack.status).toBe(403);
    expect(attack.json.error.code).toBe('CROSS_ORIGIN');
    // A browser that sends neither Origin nor Sec-Fetch-Site is stopped by the content type.
    const bare = await send(
      'POST',
      '/api/threads',
      { 'content-type': 'text/plain' },
      { graphId: 'counter-loop' },
    );
    expect(bare.status).toBe(415);
    expect(bare.json.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const form = await send(
      'POST',
      '/api/threads',
      { 'content-type': 'application/x-www-form-urlencoded' },
      {},
    );
    expect(form.status).toBe(415);
    expect((await h.request('GET', '/api/threads?graphId=counter-loop')).body.length).toBe(before);
  });

  it('cannot start a run, edit state or delete a thread', async () => {
    const thread = await h.thread('counter-loop');
    const start = await send('POST', `/api/threads/${thread}/runs`, crossSite, { input: { target: 1 } });
    expect(start.status).toBe(403);
    expect((await h.request('GET', `/api/threads/${thread}/runs`)).body).toEqual([]);
    const edit = await send('POST', `/api/threads/${thread}/state`, crossSite, { values: { count: 99 } });
    expect(edit.status).toBe(403);
    const drop = await send('DELETE', `/api/threads/${thread}`, { origin: 'http://evil.example' });
    expect(drop.status).toBe(403);
    const noType = await send('DELETE', `/api/threads/${thread}`, {});
    expect(noType.status).toBe(415);
    const after = await h.request('GET', `/api/threads/${thread}`);
    expect(after.status).toBe(200);
    expect((await h.request('GET', `/api/threads/${thread}/history`)).body).toEqual([]);
  });

  it('refuses JSON from another origin, a sibling site, a sandboxed frame, and cross-site reads', async () => {
    const json = { 'content-type': 'application/json' };
    const body = { graphId: 'counter-loop' };
    for (const headers of [
      { ...json, origin: 'http://evil.example' },
      { ...json, origin: `http://${host.replace('127.0.0.1', 'localhost')}` },
      { ...json, origin: 'null' },
      { ...json, 'sec-fetch-site': 'same-site' },
      { ...json, 'sec-fetch-site': 'cross-site' },
    ]) {
      const answer = await send('POST', '/api/threads', headers, body);
      expect(answer.status, JSON.stringify(headers)).toBe(403);
    }
    const read = await send('GET', '/api/graphs', { 'sec-fetch-site': 'cross-site' });
    expect(read.status).toBe(403);
    const events = await send('GET', '/api/runs/any/events', { origin: 'http://evil.example' });
    expect(events.status).toBe(403);
  });

  it("lets the playground's own page through, and links from other sites still open it", async () => {
    const own = await send(
      'POST',
      '/api/threads',
      {
        'content-type': 'application/json; charset=utf-8',
        origin: `http://${host}`,
        'sec-fetch-site': 'same-origin',
      },
      { graphId: 'counter-loop' },
    );
    expect(own.status).toBe(201);
    const link = await send('GET', '/', { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' });
    expect(link.status).toBe(200);
  });
});

describe('DNS rebinding: a foreign Host header is refused', () => {
  it('cannot list threads, find a refund waiting for approval, or approve it', async () => {
    const thread = await h.thread('refund-approval');
    const run = await h.start(thread, { amount: 25 });
    const { end: waiting } = await h.finished(run.id);
    expect(waiting).toMatchObject({ status: 'interrupted' });
    const interruptId = (waiting.interrupts as ReadonlyArray<{ id: string }>)[0]!.id;
    const port = new URL(h.server.url).port;
    // To the browser the rebound page is same-origin: http://attacker.example:<port> all along.
    const rebound = {
      host: `attacker.example:${port}`,
      origin: `http://attacker.example:${port}`,
      'sec-fetch-site': 'same-origin',
      'content-type': 'application/json',
    };
    const list = await send('GET', '/api/threads?graphId=refund-approval', rebound);
    expect(list.status).toBe(403);
    expect(list.json.error.code).toBe('FORBIDDEN_HOST');
    expect(list.text).not.toContain(thread);
    const approve = await send('POST', `/api/threads/${thread}/resume`, rebound, {
      interruptId,
      value: { approve: true, reviewer: 'attacker' },
    });
    expect(approve.status).toBe(403);
    expect((await send('GET', '/', { host: `attacker.example:${port}` })).status).toBe(403);
    const state = (await h.request('GET', `/api/threads/${thread}/state`)).body;
    expect(state.values.decision).toBeUndefined();
    expect(state.interrupts.map((i: { id: string }) => i.id)).toEqual([interruptId]);
  });

  it('answers to every loopback name, and to names added with allowedHosts', async () => {
    const port = new URL(h.server.url).port;
    for (const name of ['localhost', '127.0.0.1', 'app.localhost', '[::1]'])
      expect((await send('GET', '/api/graphs', { host: `${name}:${port}` })).status, name).toBe(200);
    const server = await startServer({
      app: createDemoApp(),
      port: 0,
      database: ':memory:',
      allowedHosts: ['devbox.lan'],
    });
    try {
      const hostOf = (name: string) => ({ host: `${name}:${server.port}` });
      expect(
        (await rawRequest(server.url, { path: '/api/graphs', headers: hostOf('devbox.lan') })).status,
      ).toBe(200);
      expect(
        (await rawRequest(server.url, { path: '/api/graphs', headers: hostOf('devbox.evil') })).status,
      ).toBe(403);
    } finally {
      await server.close();
    }
  });
});

describe('bound to every interface, each start requires its own random token', () => {
  let servers: PlaygroundServer[];
  beforeAll(async () => {
    servers = [];
    for (let i = 0; i < 2; i++)
      servers.push(
        await startServer({ app: createDemoApp(), host: '0.0.0.0', port: 0, database: ':memory:' }),
      );
  });
  afterAll(() => Promise.all(servers.map((server) => server.close())));

  it('refuses requests without the token and takes it from a header, the link or its cookie', async () => {
    const [a, b] = servers as [PlaygroundServer, PlaygroundServer];
    expect(a.token).toMatch(/^[0-9a-f]{64}$/);
    expect(b.token).not.toBe(a.token);
    expect(a.openUrl).toBe(`${a.url}/?token=${a.token}`);
    const at = `http://127.0.0.1:${a.port}`;
    const get = (path: string, headers: Record<string, string> = {}) =>
      rawRequest(at, { path, headers: { host: `127.0.0.1:${a.port}`, ...headers } });
    const none = await get('/api/graphs');
    expect(none.status).toBe(401);
    expect(none.json.error.code).toBe('TOKEN_REQUIRED');
    expect((await get('/api/graphs', { authorization: `Bearer ${b.token}` })).status).toBe(401);
    expect((await get('/api/graphs', { authorization: `Bearer ${a.token}` })).status).toBe(200);
    expect((await get('/')).status).toBe(401);
    const link = await get(`/?token=${a.token}`);
    expect(link.status).toBe(302);
    expect(link.headers.location).toBe('/');
    const cookie = link.headers['set-cookie']?.[0] ?? '';
    expect(cookie).toMatch(new RegExp(`^weft-token-${a.port}=${a.token};`));
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    const withCookie = await get('/api/graphs', { cookie: cookie.split(';')[0]! });
    expect(withCookie.status).toBe(200);
    // The token does not make a cross-site write acceptable.
    const write = await rawRequest(at, {
      method: 'POST',
      path: '/api/threads',
      headers: { host: `127.0.0.1:${a.port}`, authorization: `Bearer ${a.token}`, ...crossSite },
      body: '{"graphId":"counter-loop"}',
    });
    expect(write.status).toBe(403);
  });

  it('on loopback too (like Jupyter): only the page shell and the graph list answer without it', async () => {
    // Issue #52: a loopback playground had no token, so any local user could drive it.
    const { server } = h;
    expect(server.token).toMatch(/^[0-9a-f]{64}$/);
    expect(server.openUrl).toBe(`${server.url}/?token=${server.token}`);
    const get = (path: string, headers: Record<string, string> = {}) =>
      rawRequest(server.url, { path, headers: { host, ...headers } });
    expect((await get('/')).status).toBe(200);
    expect((await get('/api/graphs')).status).toBe(200);
    for (const path of ['/api/threads?graphId=counter-loop', '/api/runs/x', '/a2a/counter-loop'])
      expect((await get(path)).status, path).toBe(401);
    const write = await rawRequest(server.url, {
      method: 'POST',
      path: '/api/threads',
      headers: { host, 'content-type': 'application/json' },
      body: '{"graphId":"counter-loop"}',
    });
    expect(write.status).toBe(401);
    expect((await get('/api/threads?graphId=counter-loop', authorization(server))).status).toBe(200);
    // The link trades the token for a cookie named after this port.
    const link = await get(`/?token=${server.token}`);
    expect(link.status).toBe(302);
    const cookie = link.headers['set-cookie']?.[0] ?? '';
    expect(cookie).toMatch(new RegExp(`^weft-token-${server.port}=${server.token};`));
    expect((await get('/api/threads?graphId=counter-loop', { cookie: cookie.split(';')[0]! })).status).toBe(
      200,
    );
    // Another port's cookie is not this one's.
    expect((await get('/api/threads', { cookie: `weft-token-1=${server.token}` })).status).toBe(401);
  });
});
