import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, WeftMcpError } from '../errors/weft-mcp-error.js';
import { trackChild } from './child-processes.js';
import {
  isStdio,
  type McpHttpServer,
  type McpServerLocation,
  type McpStdioServer,
} from './server-options.js';

/** A connected client, how to tell its process's last words, and how to forget its child. */
export interface OpenClient {
  readonly client: Client;
  /** The end of what a stdio server wrote to stderr (for error messages). */
  readonly stderr: () => string;
  readonly untrack: () => void;
  /** Which transport the connection uses. */
  readonly transport: 'stdio' | 'streamable-http' | 'sse';
}

const STDERR_KEEP = 2_000;
const clientInfo = { name: 'weft', version: '0.1.0' };

/** Connects a new client to the server (stdio: starts it). */
export async function openClient(location: McpServerLocation, label: string): Promise<OpenClient> {
  return isStdio(location) ? openStdio(location, label) : openHttp(location, label);
}

async function openStdio(location: McpStdioServer, label: string): Promise<OpenClient> {
  const transport = new StdioClientTransport({
    command: location.command,
    args: [...(location.args ?? [])],
    env: { ...getDefaultEnvironment(), ...(location.env ?? {}) },
    ...(location.cwd === undefined ? {} : { cwd: location.cwd }),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_KEEP);
  });
  const untrack = trackChild(() => transport.pid);
  const client = new Client(clientInfo, { capabilities: {} });
  try {
    await client.connect(transport);
  } catch (error) {
    untrack();
    await client.close().catch(() => {});
    const said = stderr.trim() ? `; it wrote: ${stderr.trim().slice(-500)}` : '';
    throw new WeftMcpError(
      'CONNECTION_FAILED',
      `MCP server "${label}" (${location.command}) could not be started: ${describe(error)}${said}`,
      { cause: error },
    );
  }
  return { client, stderr: () => stderr, untrack, transport: 'stdio' };
}

async function openHttp(location: McpHttpServer, label: string): Promise<OpenClient> {
  const url = new URL(location.url);
  const requestInit = location.headers ? { headers: { ...location.headers } } : undefined;
  const none = () => '';
  const streamable = new Client(clientInfo, { capabilities: {} });
  try {
    await streamable.connect(new StreamableHTTPClientTransport(url, requestInit ? { requestInit } : {}));
    return { client: streamable, stderr: none, untrack: () => {}, transport: 'streamable-http' };
  } catch (streamableError) {
    await streamable.close().catch(() => {});
    // The older HTTP+SSE transport: servers written before Streamable HTTP answer its POST with 4xx.
    const sse = new Client(clientInfo, { capabilities: {} });
    try {
      const eventSourceInit = location.headers ? { fetch: withHeaders(location.headers) } : undefined;
      await sse.connect(
        new SSEClientTransport(url, {
          ...(requestInit ? { requestInit } : {}),
          ...(eventSourceInit ? { eventSourceInit } : {}),
        }),
      );
      return { client: sse, stderr: none, untrack: () => {}, transport: 'sse' };
    } catch (sseError) {
      await sse.close().catch(() => {});
      throw new WeftMcpError(
        'CONNECTION_FAILED',
        `MCP server "${label}" (${url.href}) could not be reached: Streamable HTTP failed (${describe(streamableError)}), and so did SSE (${describe(sseError)})`,
        { cause: streamableError },
      );
    }
  }
}

/** A fetch that adds the headers (the SSE stream's GET takes its headers through `fetch`). */
function withHeaders(headers: Readonly<Record<string, string>>): typeof fetch {
  return (input, init) => {
    const merged = new Headers(init?.headers);
    for (const [key, value] of Object.entries(headers)) merged.set(key, value);
    return fetch(input, { ...init, headers: merged });
  };
}
