import type { AgentCard } from '@a2a-js/sdk';
import { WeftA2aError } from '../errors/weft-a2a-error.js';
import { assembleServer } from './assemble-server.js';
import type { A2aHandlerOptions } from './handler-options.js';
import { cardResponse, rpcResponse } from './http-routes.js';
import { recoverTasks } from './recover-tasks.js';
import { checkRequest, Refusal } from './request-guard.js';

/**
 * The path of the agent card under a served agent's URL (A2A's well-known path).
 *
 * @example
 * ```ts
 * const cardUrl = new URL(A2A_AGENT_CARD_PATH.slice(1), 'http://127.0.0.1:8000/a2a/desk/'); // …/a2a/desk/.well-known/agent-card.json
 * ```
 */
export const A2A_AGENT_CARD_PATH = '/.well-known/agent-card.json';

/**
 * A served agent or graph as a fetch handler (`Request` → `Response`): mount it anywhere, e.g. under
 * `/a2a/<agent>` of a Hono app (`app.all('/a2a/desk/*', (c) => handler.fetch(c.req.raw))`).
 *
 * @example
 * ```ts
 * declare const agent: import('@weft/adk').Agent;
 * const handler: A2aHandler = createA2aHandler({ agent });
 * const response = await handler.fetch(new Request('http://127.0.0.1:8000/.well-known/agent-card.json'));
 * const card = (await response.json()) as { name: string };
 * console.log(card.name);
 * ```
 */
export interface A2aHandler {
  /** The server's name: the agent's or graph's (it scopes the tasks in the store). */
  readonly name: string;
  /** Answers `GET …/.well-known/agent-card.json` and JSON-RPC `POST`s to the agent's URL. */
  fetch(request: Request): Promise<Response>;
  /** The agent card (protocol 1.0) for an agent reachable at `url`. */
  card(url: string): AgentCard;
  /**
   * Continues the tasks a stopped server left `submitted` or `working` in the task store, each from its
   * run's last checkpoint; resolves with their ids once they started (they run on in the background).
   */
  recover(): Promise<readonly string[]>;
  /** Aborts running tasks (they stay `working`, for {@link A2aHandler.recover} after a restart). */
  close(): Promise<void>;
}

/**
 * Serves a Weft agent (through a `Runner`), a `Runner`'s agent or a compiled graph over the Agent2Agent
 * protocol, on `@a2a-js/sdk`'s request handler: the agent card at `/.well-known/agent-card.json` (skills
 * from the agent's description, tools and sub-agents; streaming and push notifications), JSON-RPC at
 * protocol 1.0 (`SendMessage`, `SendStreamingMessage`, `GetTask`, `ListTasks`, `CancelTask`,
 * `SubscribeToTask`, push configs) and 0.3 (`message/send`, `message/stream`, `tasks/get`,
 * `tasks/cancel`, `tasks/resubscribe`, …). A task's record lives in `taskStore`, its run in the agent's
 * session and checkpoints: a Weft pause is `input-required`, answered by the client's next message.
 *
 * @throws WeftA2aError `INVALID_ARGUMENT` for no target or several, a short token, or a required token
 *   that is missing.
 * @example
 * ```ts
 * import { ChatModelAgent } from '@weft/adk';
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const agent = new ChatModelAgent({ name: 'desk', description: 'Answers questions', model: new ScriptedChatModel(['Hi!']) });
 * const handler = createA2aHandler({ agent });
 * const response = await handler.fetch(new Request('http://127.0.0.1:8000/.well-known/agent-card.json'));
 * const card = (await response.json()) as { skills: Array<{ id: string }> };
 * console.log(card.skills[0]?.id); // 'desk'
 * ```
 */
export function createA2aHandler(options: A2aHandlerOptions): A2aHandler {
  const server = assembleServer(options);
  const guard = options.guard;
  const limit = (guard !== false ? guard?.maxBodyBytes : undefined) ?? 1024 * 1024;
  if (!(limit > 0))
    throw new WeftA2aError('INVALID_ARGUMENT', `guard.maxBodyBytes must be positive, got ${limit}`);
  const deliveries = new Set<Promise<void>>();
  let closed = false;

  const handle = async (request: Request): Promise<Response> => {
    if (guard !== false) checkRequest(request, guard ?? {});
    const url = new URL(request.url);
    if (request.method === 'GET' && url.pathname.endsWith(A2A_AGENT_CARD_PATH))
      return cardResponse(request, server.cardAt(options.url ?? baseOf(url)));
    if (request.method !== 'POST')
      throw new Refusal(
        404,
        'NOT_FOUND',
        `no A2A route ${request.method} ${url.pathname}; the card is at …${A2A_AGENT_CARD_PATH}`,
      );
    if (closed) throw new Refusal(503, 'CLOSED', 'this agent is shutting down');
    const user = await server.auth.check(request);
    return rpcResponse(request, { endpoint: server.endpoint, handler: server.requestHandler, user, limit });
  };

  const { tasks, executor, buses, sender } = server;
  return {
    name: server.name,
    card: server.cardAt,
    fetch: (request) =>
      handle(request).catch((error: unknown) => {
        if (error instanceof Refusal) return refusal(error);
        console.error('[weft a2a] request failed:', error);
        return Response.json({ error: { code: 'INTERNAL', message: 'internal error' } }, { status: 500 });
      }),
    recover: () => recoverTasks({ tasks, executor, buses, deliveries, ...(sender ? { sender } : {}) }),
    close: async () => {
      closed = true;
      await executor.close();
      await Promise.all([...deliveries]);
    },
  };
}

/** The agent's URL for a request of its card: the card's path without the well-known part, ending with `/`. */
function baseOf(url: URL): string {
  const path = url.pathname.slice(0, -A2A_AGENT_CARD_PATH.length);
  return `${url.origin}${path.endsWith('/') ? path : `${path}/`}`;
}

function refusal(error: Refusal): Response {
  const headers: Record<string, string> =
    error.status === 401 ? { 'www-authenticate': 'Bearer realm="weft-a2a"' } : {};
  return Response.json(
    { error: { code: error.code, message: error.message } },
    { status: error.status, headers },
  );
}
