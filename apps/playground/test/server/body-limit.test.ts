// Issue #19 (2): request bodies are capped (default 10 MB, configurable) with a 413, counted while they
// stream in: a 200 MB body is refused without being read, let alone held in memory.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoApp } from '../../src/server/demo/demo-app.ts';
import { type PlaygroundServer, startServer } from '../../src/server/server.ts';
import { rawRequest } from './raw-http.ts';

const MB = 1024 * 1024;
let defaults: PlaygroundServer;
let small: PlaygroundServer;
beforeAll(async () => {
  defaults = await startServer({ app: createDemoApp(), port: 0, database: ':memory:', token: false });
  small = await startServer({
    app: createDemoApp(),
    port: 0,
    database: ':memory:',
    maxBodyBytes: 64 * 1024,
    token: false,
  });
});
afterAll(() => Promise.all([defaults.close(), small.close()]));

/**
 * Streams up to `total` bytes of a JSON string as a chunked body, one 16 KB chunk at a time and only as
 * fast as the server reads; stops as soon as the answer arrives. Returns the status and the bytes sent.
 */
function streamBody(server: PlaygroundServer, total: number): Promise<{ status: number; sent: number }> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = httpRequest({
      host: '127.0.0.1',
      port: server.port,
      method: 'POST',
      path: '/api/threads',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
    });
    req.on('response', (res) => {
      answered = true;
      res.resume();
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, sent });
      });
    });
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    const chunk = Buffer.alloc(16 * 1024, 'a');
    const pump = (): void => {
      while (!answered && sent < total) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!answered) req.end();
    };
    req.write('{"graphId":"');
    pump();
  });
}

describe('request bodies are capped', () => {
  it('refuses a declared 200 MB body with a 413 before any of it is sent', async () => {
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest({
        host: '127.0.0.1',
        port: defaults.port,
        method: 'POST',
        path: '/api/threads',
        headers: { 'content-type': 'application/json', 'content-length': String(200 * MB) },
      });
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (part: string) => {
          body += part;
        });
        res.on('end', () => {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, body });
        });
      });
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).error).toMatchObject({ code: 'BODY_TOO_LARGE' });
    expect(JSON.parse(answer.body).error.message).toContain('10 MB');
  });

  it('counts a chunked body as it streams and answers 413 at the cap, long before 200 MB', async () => {
    const { status, sent } = await streamBody(small, 200 * MB);
    expect(status).toBe(413);
    expect(sent).toBeLessThan(200 * MB);
    expect(sent).toBeGreaterThan(64 * 1024);
    // The server is still there for the next request.
    const after = await rawRequest(small.url, { path: '/api/health' });
    expect(after.json).toEqual({ ok: true });
  });

  it('takes a body under the cap', async () => {
    // JSON with trailing whitespace: a valid body of any size.
    const post = (size: number) =>
      rawRequest(small.url, {
        method: 'POST',
        path: '/api/threads',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ graphId: 'counter-loop', title: 'padded' }).padEnd(size, ' '),
      });
    const under = await post(64 * 1024);
    expect(under.status).toBe(201);
    expect(under.json.title).toBe('padded');
    expect((await post(64 * 1024 + 1)).status).toBe(413);
  });
});
