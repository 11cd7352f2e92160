import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { WeftMcpError } from '../errors/weft-mcp-error.js';

/**
 * Options of `listen` on a served MCP endpoint.
 *
 * @example
 * ```ts
 * const options: McpListenOptions = { port: 3920, maxBodyBytes: 256 * 1024 };
 * ```
 */
export interface McpListenOptions {
  /** Port (default 0: a free one; read it from the returned `url`). */
  readonly port?: number;
  /** Interface to bind (default `127.0.0.1`: loopback only). */
  readonly host?: string;
  /** The endpoint's path (default `/mcp`). */
  readonly path?: string;
  /** `Host` headers accepted (default: `127.0.0.1`, `localhost` and `[::1]` with the port). */
  readonly allowedHosts?: readonly string[];
  /** `Origin` headers accepted when a request has one (default: the loopback origins of the port). */
  readonly allowedOrigins?: readonly string[];
  /** Larger request bodies are refused with 413 (default 1 MiB). */
  readonly maxBodyBytes?: number;
  /**
   * The bearer token every request must carry (`Authorization: Bearer <token>`). Default: a random one,
   * made at `listen` and given on the endpoint (`token`), so no other local process can call the tools.
   * Required when `host` is not loopback. `false` serves without one — allowed only on loopback.
   */
  readonly token?: string | false;
  /** Open MCP sessions at most (default 100); a new session beyond it gets 503 (idle ones expire first). */
  readonly maxSessions?: number;
  /** A session unused this long is closed (default 15 minutes). */
  readonly sessionIdleMs?: number;
}

/**
 * A listening MCP endpoint.
 *
 * @example
 * ```ts
 * const refundGraph = new StateGraph(z.object({ order: z.string(), refunded: z.boolean().optional() }))
 *   .addNode('refund', () => ({ refunded: true }))
 *   .addEdge(START, 'refund')
 *   .addEdge('refund', END)
 *   .compile({ name: 'refund' });
 * const served = serveMcp({ graphs: { refund: refundGraph } });
 * const endpoint: McpHttpEndpoint = await served.listen();
 * console.log(endpoint.url); // http://127.0.0.1:41234/mcp — clients send `Authorization: Bearer ${endpoint.token}`
 * await endpoint.close();
 * ```
 */
export interface McpHttpEndpoint {
  readonly url: string;
  /** The bearer token clients must send (`Authorization: Bearer <token>`); `undefined` when served without one. */
  readonly token: string | undefined;
  /** How many MCP sessions are open. */
  readonly sessions: number;
  /** Closes every MCP session and stops listening. */
  close(): Promise<void>;
}

/** An open MCP session: its SDK server and transport, and when a request last used it. */
interface OpenSession {
  readonly transport: StreamableHTTPServerTransport;
  readonly server: Server;
  lastUsed: number;
}

class HttpRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function refuse(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

async function readBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) throw new HttpRefusal(413, `request body over ${limit} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new HttpRefusal(413, `request body over ${limit} bytes`);
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpRefusal(400, 'request body is not JSON');
  }
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** True for an interface only this machine reaches. */
function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || host.startsWith('127.');
}

/** The token a listener requires: given, made up, or none (loopback only). */
function tokenFor(host: string, token: string | false | undefined): string | undefined {
  if (token === false) {
    if (!isLoopback(host))
      throw new WeftMcpError(
        'INVALID_ARGUMENT',
        `listen: host "${host}" is not loopback, so a token is required; give { token } or leave it unset for a random one`,
      );
    return undefined;
  }
  if (token === undefined) return randomBytes(24).toString('base64url');
  if (token.length < 16)
    throw new WeftMcpError(
      'INVALID_ARGUMENT',
      `listen: token must be at least 16 characters, got ${token.length}`,
    );
  return token;
}

/** Compares a presented token with the expected one in constant time. */
function tokenMatches(presented: string | undefined, expected: string): boolean {
  if (presented === undefined) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function loopbackNames(port: number) {
  const hosts = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
  return { hosts, origins: hosts.map((host) => `http://${host}`) };
}

/** Serves MCP over Streamable HTTP (one SDK server per session), refusing foreign hosts, origins and large bodies. */
export async function listenHttp(
  newServer: () => Server,
  options: McpListenOptions = {},
): Promise<McpHttpEndpoint> {
  const path = options.path ?? '/mcp';
  const limit = options.maxBodyBytes ?? 1024 * 1024;
  if (!(limit > 0))
    throw new WeftMcpError('INVALID_ARGUMENT', `listen: maxBodyBytes must be positive, got ${limit}`);
  const bindHost = options.host ?? '127.0.0.1';
  const token = tokenFor(bindHost, options.token);
  const maxSessions = options.maxSessions ?? 100;
  const idleMs = options.sessionIdleMs ?? 15 * 60_000;
  if (!(maxSessions >= 1))
    throw new WeftMcpError('INVALID_ARGUMENT', `listen: maxSessions must be at least 1, got ${maxSessions}`);
  if (!(idleMs > 0))
    throw new WeftMcpError('INVALID_ARGUMENT', `listen: sessionIdleMs must be positive, got ${idleMs}`);
  const sessions = new Map<string, OpenSession>();
  /** Closes the sessions unused for `idleMs` (their servers and transports, with what they hold). */
  const expire = (now: number): void => {
    for (const [id, session] of sessions)
      if (now - session.lastUsed >= idleMs) {
        sessions.delete(id);
        void session.server.close().catch(() => undefined);
      }
  };
  let allowed = { hosts: new Set<string>(), origins: new Set<string>() };
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const host = req.headers.host ?? '';
    if (!allowed.hosts.has(host)) throw new HttpRefusal(403, `Host "${host}" is not allowed`);
    const origin = req.headers.origin;
    if (origin !== undefined && !allowed.origins.has(origin))
      throw new HttpRefusal(403, `Origin "${origin}" is not allowed`);
    if (new URL(req.url ?? '/', 'http://x').pathname !== path)
      throw new HttpRefusal(404, `no MCP endpoint here; use ${path}`);
    if (token !== undefined) {
      const presented = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
      if (!tokenMatches(presented, token))
        throw new HttpRefusal(401, 'missing or wrong bearer token (Authorization: Bearer <token>)');
    }
    const body = req.method === 'POST' ? await readBody(req, limit) : undefined;
    const now = Date.now();
    const id = req.headers['mcp-session-id'];
    const existing = typeof id === 'string' ? sessions.get(id) : undefined;
    if (existing && now - existing.lastUsed < idleMs) {
      existing.lastUsed = now;
      return existing.transport.handleRequest(req, res, body);
    }
    if (id !== undefined) throw new HttpRefusal(404, 'unknown, expired or closed MCP session');
    if (req.method !== 'POST' || !isInitializeRequest(body))
      throw new HttpRefusal(400, 'no MCP session: initialize first');
    if (sessions.size >= maxSessions) expire(now);
    if (sessions.size >= maxSessions)
      throw new HttpRefusal(503, `too many open MCP sessions (${maxSessions}); close one or try later`);
    const server = newServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, { transport, server, lastUsed: Date.now() });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };
  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (error instanceof HttpRefusal) refuse(res, error.status, error.message);
      else refuse(res, 500, 'internal error');
    });
  });
  const host = bindHost;
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, host, () => resolve());
  });
  // Idle sessions also go without new ones arriving (the timer does not keep the process alive).
  const sweep = setInterval(() => expire(Date.now()), Math.min(idleMs, 60_000));
  sweep.unref();
  const port = (http.address() as AddressInfo).port;
  const defaults = loopbackNames(port);
  allowed = {
    hosts: new Set(options.allowedHosts ?? defaults.hosts),
    origins: new Set(options.allowedOrigins ?? defaults.origins),
  };
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}${path}`,
    token,
    get sessions() {
      return sessions.size;
    },
    close: async () => {
      clearInterval(sweep);
      await Promise.all([...sessions.values()].map((s) => s.server.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
