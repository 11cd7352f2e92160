import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve as listen } from '@hono/node-server';
import { createServer, type ServerOptions, type WeftServer } from './create-server.js';
import { WeftServerError } from './errors/server-error.js';
import { isLoopback } from './http/request-guard.js';

/**
 * Options of {@link serve}: the server's, and where to listen.
 *
 * @example
 * ```ts
 * declare const agent: ServedGraph;
 * const options: ServeOptions = { graphs: { agent }, port: 2024, database: '.weft/server.db' };
 * ```
 */
export type ServeOptions = ServerOptions & {
  /** Port (default 0: a free one; read it from `url`). */
  readonly port?: number;
  /** Interface to bind (default `127.0.0.1`). Beyond loopback an `auth` hook is required. */
  readonly host?: string;
  /**
   * Continue, at start, the runs a stopped server left `running` or `pending` (see `WeftServer.recover`).
   * Default: with the embedded SQLite database, yes; with a `checkpointer` and `store` of your own
   * (possibly shared by live servers, whose running runs must not be taken over), no.
   */
  readonly recover?: boolean;
};

/**
 * A listening server.
 *
 * @example
 * ```ts
 * declare const running: ServedServer;
 * console.log(running.url); // http://127.0.0.1:2024
 * await running.close();
 * ```
 */
export interface ServedServer {
  /** The base URL to give the SDK's `Client({ apiUrl })`. */
  readonly url: string;
  readonly server: WeftServer;
  /**
   * Graceful shutdown: readiness turns 503 and new runs are refused while running ones drain (or are
   * handed back, see `WeftServer.close`), then it stops listening.
   */
  close(options?: { readonly drainMs?: number }): Promise<void>;
}

/**
 * Serves Weft graphs over the LangGraph API on an HTTP port (see {@link createServer}); continues the
 * runs a previous server over the same stores left unfinished.
 *
 * @throws WeftServerError `INVALID_ARGUMENT` when bound beyond loopback without an `auth` hook.
 * @example
 * ```ts
 * const graph = new StateGraph(z.object({ n: z.number() }))
 *   .addNode('double', (s) => ({ n: s.n * 2 }))
 *   .addEdge(START, 'double').addEdge('double', END)
 *   .compile();
 * const running = await serve({ graphs: { doubler: graph }, port: 0 });
 * console.log(running.url); // http://127.0.0.1:41234
 * await running.close();
 * ```
 */
export async function serve(options: ServeOptions): Promise<ServedServer> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopback(host) && !options.auth)
    throw new WeftServerError(
      'INVALID_ARGUMENT',
      `serve: binding ${host} (beyond loopback) needs an "auth" hook; every caller would otherwise be the same anonymous user`,
    );
  const guard =
    options.guard === false || isLoopback(host) || options.guard?.allowedHosts
      ? options.guard
      : { ...options.guard, allowedHosts: host === '0.0.0.0' || host === '::' ? ('*' as const) : [host] };
  const server = await createServer({ ...options, ...(guard === undefined ? {} : { guard }) });
  const http = await new Promise<Server>((resolve, reject) => {
    const listening = listen({ fetch: server.fetch, hostname: host, port: options.port ?? 0 }) as Server;
    listening.once('error', reject);
    listening.once('listening', () => {
      listening.off('error', reject);
      resolve(listening);
    });
  });
  // Idle keep-alive sockets stay open longer than clients' and proxies' own idle timeouts, so a busy
  // server never closes one a client is just reusing (an ECONNRESET mid-request under load).
  http.keepAliveTimeout = 65_000;
  http.headersTimeout = 66_000;
  const port = (http.address() as AddressInfo).port;
  if (options.recover ?? !(options.checkpointer && options.store)) await server.recover();
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    server,
    close: async (closeOptions) => {
      // Still listening while runs drain: readiness answers 503 and new runs are refused meanwhile.
      await server.close(closeOptions);
      const stopped = new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeAllConnections();
      await stopped;
    },
  };
}
