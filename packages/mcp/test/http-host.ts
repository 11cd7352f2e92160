import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createServer as createEverything } from '@modelcontextprotocol/server-everything/dist/server/index.js';

/** The reference "everything" server, hosted in this process on loopback. */
export interface HostedEverything {
  readonly url: string;
  /** The MCP servers of the sessions opened so far (one per client). */
  readonly servers: McpServer[];
  /** The values of the `x-weft-test` header of the requests received. */
  readonly headers: string[];
  close(): Promise<void>;
}

function listen(server: Server): Promise<string> {
  // Idle keep-alive sockets stay open for the test's life. With Node's 5 s default, a client starved of CPU
  // (CI at load average 80) can send a request on a socket in the same turn the server's idle timer closes
  // it, and the request fails with "fetch failed" (seen once in CI).
  server.keepAliveTimeout = 10 * 60_000;
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    );
  });
}

function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** Serves server-everything over Streamable HTTP at `/mcp` (one MCP session per client, as its own host does). */
export function hostEverythingStreamable(): Promise<HostedEverything> {
  return hostStreamable(() => createEverything().server);
}

/** Serves the MCP servers `create` makes (one per client session) over Streamable HTTP on loopback. */
export async function hostStreamable(create: () => McpServer): Promise<HostedEverything> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const servers: McpServer[] = [];
  const headers: string[] = [];
  const http = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const marked = req.headers['x-weft-test'];
    if (typeof marked === 'string') headers.push(marked);
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? sessions.get(id) : undefined;
    if (!transport) {
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => {
          sessions.set(sessionId, created);
        },
      });
      const server = create();
      servers.push(server);
      await server.connect(created);
      transport = created;
    }
    await transport.handleRequest(req, res);
  });
  const url = `${await listen(http)}/mcp`;
  return {
    url,
    servers,
    headers,
    close: async () => {
      await Promise.all(servers.map((s) => s.close()));
      await stop(http);
    },
  };
}

/** Serves server-everything over the older HTTP+SSE transport only (GET /sse, POST /messages). */
export async function hostEverythingSse(): Promise<HostedEverything> {
  const transports = new Map<string, SSEServerTransport>();
  const servers: McpServer[] = [];
  const headers: string[] = [];
  const http = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'GET' && url.pathname === '/sse') {
      const transport = new SSEServerTransport('/messages', res);
      transports.set(transport.sessionId, transport);
      const { server } = createEverything();
      servers.push(server);
      await server.connect(transport);
      return;
    }
    const transport = transports.get(url.searchParams.get('sessionId') ?? '');
    if (req.method === 'POST' && url.pathname === '/messages' && transport) {
      await transport.handlePostMessage(req, res);
      return;
    }
    res.writeHead(405).end();
  });
  const url = `${await listen(http)}/sse`;
  return {
    url,
    servers,
    headers,
    close: async () => {
      await Promise.all(servers.map((s) => s.close()));
      await stop(http);
    },
  };
}
