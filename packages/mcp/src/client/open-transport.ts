import type { Stream } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
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

/** How one connect is bounded: a time limit for `initialize`, and a signal that ends it (close). */
export interface ConnectLimits {
  readonly label: string;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
}

const STDERR_KEEP = 2_000;
/** How long a failed connect waits for the stopped server's stderr pipe to end before quoting it. */
const STDERR_DRAIN_MS = 1_000;

/** Resolves when a readable stream has ended or closed (at once when there is none). */
function streamEnded(stream: Stream | null | undefined): Promise<void> {
  if (!stream) return Promise.resolve();
  return new Promise((resolve) => {
    stream.once('end', () => resolve());
    stream.once('close', () => resolve());
  });
}
const clientInfo = { name: 'weft', version: '0.1.0' };
/** Longer than any limit we set: the SDK's own 60 s initialize timeout must never fire first. */
const NO_SDK_TIMEOUT = 2 ** 31 - 1;

/** Why a connect ended early: the limit passed, or the connection was closed while connecting. */
class ConnectEnded extends Error {
  constructor(readonly why: 'timeout' | 'closed') {
    super(why);
  }
}

/** Connects a new client to the server (stdio: starts it), within `limits`. */
export async function openClient(location: McpServerLocation, limits: ConnectLimits): Promise<OpenClient> {
  return isStdio(location) ? openStdio(location, limits) : openHttp(location, limits);
}

/**
 * Runs `client.connect(transport)` until it succeeds, fails, passes `timeoutMs` or `signal` aborts; in the
 * last two cases `stop` ends the transport (and a stdio server's process) before this rejects.
 */
async function connectWithin(
  client: Client,
  transport: Transport,
  limits: ConnectLimits,
  stop: () => Promise<void>,
): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const ended = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ConnectEnded('timeout')), limits.timeoutMs);
    onAbort = () => reject(new ConnectEnded('closed'));
    if (limits.signal.aborted) onAbort();
    else limits.signal.addEventListener('abort', onAbort, { once: true });
  });
  const connecting = client.connect(transport, { timeout: NO_SDK_TIMEOUT });
  connecting.catch(() => {}); // rejects again once `stop` closed the transport
  try {
    await Promise.race([connecting, ended]);
  } catch (error) {
    if (error instanceof ConnectEnded) await stop();
    throw error;
  } finally {
    clearTimeout(timer);
    if (onAbort) limits.signal.removeEventListener('abort', onAbort);
  }
}

/**
 * The error for a connect that failed: `CLOSED` when the connection was closed meanwhile, else
 * `CONNECTION_FAILED` naming the server (`where`: its command or URL) and quoting what it wrote.
 */
function connectFailure(error: unknown, limits: ConnectLimits, where: string, said = ''): WeftMcpError {
  if (error instanceof ConnectEnded && error.why === 'closed') {
    return new WeftMcpError(
      'CLOSED',
      `MCP server "${limits.label}": the connection was closed while connecting`,
    );
  }
  const what =
    error instanceof ConnectEnded
      ? `did not answer \`initialize\` within ${limits.timeoutMs} ms`
      : `could not be started: ${describe(error)}`;
  const quoted = said ? `; it wrote: ${said}` : '';
  return new WeftMcpError('CONNECTION_FAILED', `MCP server "${limits.label}" (${where}) ${what}${quoted}`, {
    cause: error,
  });
}

async function openStdio(location: McpStdioServer, limits: ConnectLimits): Promise<OpenClient> {
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
  const stderrDone = streamEnded(transport.stderr);
  const untrack = trackChild(() => transport.pid);
  const client = new Client(clientInfo, { capabilities: {} });
  // A server stuck at start may also ignore the end of its stdin: signal it first, then close (which
  // waits for the process to be gone).
  const stop = async () => {
    const pid = transport.pid;
    if (pid !== null) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    await client.close().catch(() => {});
  };
  try {
    await connectWithin(client, transport, limits, stop);
  } catch (error) {
    untrack();
    await client.close().catch(() => {});
    // The process is gone: read what it wrote up to its end before quoting it (its pipe can end after
    // its exit is seen). A grandchild holding the pipe open must not hold the error back for long.
    await Promise.race([stderrDone, new Promise((resolve) => setTimeout(resolve, STDERR_DRAIN_MS).unref())]);
    throw connectFailure(error, limits, location.command, stderr.trim().slice(-500));
  }
  return { client, stderr: () => stderr, untrack, transport: 'stdio' };
}

async function openHttp(location: McpHttpServer, limits: ConnectLimits): Promise<OpenClient> {
  const url = new URL(location.url);
  const requestInit = location.headers ? { headers: { ...location.headers } } : undefined;
  const none = () => '';
  const streamable = new Client(clientInfo, { capabilities: {} });
  const stopStreamable = () => streamable.close().catch(() => {});
  try {
    const transport = new StreamableHTTPClientTransport(url, requestInit ? { requestInit } : {});
    await connectWithin(streamable, transport, limits, stopStreamable);
    return { client: streamable, stderr: none, untrack: () => {}, transport: 'streamable-http' };
  } catch (streamableError) {
    await stopStreamable();
    // A server that does not answer (or a close) is not a server of the older transport.
    if (streamableError instanceof ConnectEnded) throw connectFailure(streamableError, limits, url.href);
    // The older HTTP+SSE transport: servers written before Streamable HTTP answer its POST with 4xx.
    const sse = new Client(clientInfo, { capabilities: {} });
    const stopSse = () => sse.close().catch(() => {});
    try {
      const eventSourceInit = location.headers ? { fetch: withHeaders(location.headers) } : undefined;
      const transport = new SSEClientTransport(url, {
        ...(requestInit ? { requestInit } : {}),
        ...(eventSourceInit ? { eventSourceInit } : {}),
      });
      await connectWithin(sse, transport, limits, stopSse);
      return { client: sse, stderr: none, untrack: () => {}, transport: 'sse' };
    } catch (sseError) {
      await stopSse();
      if (sseError instanceof ConnectEnded) throw connectFailure(sseError, limits, url.href);
      throw new WeftMcpError(
        'CONNECTION_FAILED',
        `MCP server "${limits.label}" (${url.href}) could not be reached: Streamable HTTP failed (${describe(streamableError)}), and so did SSE (${describe(sseError)})`,
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
