import { randomUUID } from 'node:crypto';
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
 * console.log(endpoint.url); // http://127.0.0.1:41234/mcp
 * await endpoint.close();
 * ```
 */
export interface McpHttpEndpoint {
  readonly url: string;
  /** Closes every MCP session and stops listening. */
  close(): Promise<void>;
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
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: Server }>();
  let allowed = { hosts: new Set<string>(), origins: new Set<string>() };
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const host = req.headers.host ?? '';
    if (!allowed.hosts.has(host)) throw new HttpRefusal(403, `Host "${host}" is not allowed`);
    const origin = req.headers.origin;
    if (origin !== undefined && !allowed.origins.has(origin))
      throw new HttpRefusal(403, `Origin "${origin}" is not allowed`);
    if (new URL(req.url ?? '/', 'http://x').pathname !== path)
      throw new HttpRefusal(404, `no MCP endpoint here; use ${path}`);
    const body = req.method === 'POST' ? await readBody(req, limit) : undefined;
    const id = req.headers['mcp-session-id'];
    const existing = typeof id === 'string' ? sessions.get(id) : undefined;
    if (existing) return existing.transport.handleRequest(req, res, body);
    if (id !== undefined) throw new HttpRefusal(404, 'unknown or closed MCP session');
    if (req.method !== 'POST' || !isInitializeRequest(body))
      throw new HttpRefusal(400, 'no MCP session: initialize first');
    const server = newServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, { transport, server });
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
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  const defaults = loopbackNames(port);
  allowed = {
    hosts: new Set(options.allowedHosts ?? defaults.hosts),
    origins: new Set(options.allowedOrigins ?? defaults.origins),
  };
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}${path}`,
    close: async () => {
      await Promise.all([...sessions.values()].map((s) => s.server.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
