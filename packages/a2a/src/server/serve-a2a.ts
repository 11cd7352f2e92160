import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { A2A_AGENT_CARD_PATH, type A2aHandler, createA2aHandler } from './a2a-handler.js';
import type { A2aHandlerOptions } from './handler-options.js';
import { isLoopback } from './request-guard.js';

/**
 * Options of {@link serveA2a}: the handler's, and where to listen.
 *
 * @example
 * ```ts
 * declare const agent: import('@weft/adk').Agent;
 * const options: ServeA2aOptions = { agent, port: 0, host: '127.0.0.1' };
 * ```
 */
export type ServeA2aOptions = A2aHandlerOptions & {
  /** Port (default 0: a free one; read it from `url`). */
  readonly port?: number;
  /**
   * Interface to bind (default `127.0.0.1`). Beyond loopback every request but the card needs a bearer
   * token: `auth.token` or `auth.authenticate`, else a random token made here (`server.token`).
   */
  readonly host?: string;
  /** Continue the tasks a stopped server left running (default true; see `A2aHandler.recover`). */
  readonly recover?: boolean;
};

/**
 * A listening A2A server.
 *
 * @example
 * ```ts
 * declare const agent: import('@weft/adk').Agent;
 * const server: A2aServer = await serveA2a({ agent, port: 0 });
 * console.log(server.cardUrl); // http://127.0.0.1:41234/.well-known/agent-card.json
 * await server.close();
 * ```
 */
export interface A2aServer {
  /** The agent's URL (its JSON-RPC endpoint), ending with `/`. */
  readonly url: string;
  /** Where its agent card is. */
  readonly cardUrl: string;
  /** The bearer token clients present, when the server made or was given one. */
  readonly token: string | undefined;
  readonly handler: A2aHandler;
  /** Aborts running tasks (they stay `working`, continued by the next server over the same stores) and stops listening. */
  close(): Promise<void>;
}

/**
 * Serves a Weft agent, Runner or graph over A2A on its own HTTP port (see `createA2aHandler` for what is
 * served). It binds `127.0.0.1` unless told otherwise and requires a bearer token beyond loopback; on
 * start it continues the tasks a previous server over the same stores left running.
 *
 * @throws WeftA2aError `INVALID_ARGUMENT` for bad options; the listen error when the port is taken.
 * @example
 * ```ts
 * import { ChatModelAgent } from '@weft/adk';
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const agent = new ChatModelAgent({ name: 'desk', model: new ScriptedChatModel(['Hi!']) });
 * const server = await serveA2a({ agent, port: 0 });
 * console.log(server.url); // http://127.0.0.1:41234/
 * await server.close();
 * ```
 */
export async function serveA2a(options: ServeA2aOptions): Promise<A2aServer> {
  const host = options.host ?? '127.0.0.1';
  const loopback = isLoopback(host);
  const auth = options.auth ?? (loopback ? undefined : { token: randomBytes(24).toString('base64url') });
  const handler = createA2aHandler({
    ...options,
    auth: { ...auth, required: auth?.required ?? !loopback },
    guard:
      options.guard === false
        ? false
        : {
            ...options.guard,
            ...(loopback || options.guard?.allowedHosts ? {} : { allowedHosts: hostsFor(host) }),
          },
  });
  const server = await new Promise<Server>((resolve, reject) => {
    const http = serve({ fetch: handler.fetch, hostname: host, port: options.port ?? 0 }) as Server;
    http.once('error', reject);
    http.once('listening', () => {
      http.off('error', reject);
      resolve(http);
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}/`;
  if (options.recover ?? true) await handler.recover();
  return {
    url,
    cardUrl: `${url.slice(0, -1)}${A2A_AGENT_CARD_PATH}`,
    token: auth?.token,
    handler,
    close: async () => {
      await handler.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** `Host` names a server bound beyond loopback answers to: its address, or any for a wildcard bind. */
function hostsFor(host: string): readonly string[] | '*' {
  return host === '0.0.0.0' || host === '::' ? '*' : [host];
}
