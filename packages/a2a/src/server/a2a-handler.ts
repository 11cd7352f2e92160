import { A2A_VERSION_HEADER, AgentCard, Extensions, HTTP_EXTENSION_HEADER } from '@a2a-js/sdk';
import { createLegacyAwarePushNotificationSender } from '@a2a-js/sdk/compat/v0_3/server';
import { A2A_ERROR_CODE } from '@a2a-js/sdk/errors';
import { DefaultExecutionEventBusManager, ServerCallContext } from '@a2a-js/sdk/server';
import { MemoryStore, type Store } from '@weft/compose';
import { WeftA2aError } from '../errors/weft-a2a-error.js';
import { type A2aCardOptions, buildAgentCard } from './agent-card.js';
import { JsonRpcEndpoint } from './json-rpc-endpoint.js';
import { legacyAgentCard } from './legacy-card.js';
import { recoverTasks } from './recover-tasks.js';
import { requestAuth } from './request-auth.js';
import {
  type A2aAuthOptions,
  type A2aGuardOptions,
  checkRequest,
  Refusal,
  readBody,
} from './request-guard.js';
import { type PushUrlPolicy, StorePushNotificationStore } from './store-push-store.js';
import { StoreTaskStore } from './store-task-store.js';
import { type A2aTarget, targetOf } from './target.js';
import { WeftExecutor } from './weft-executor.js';
import { WeftRequestHandler } from './weft-request-handler.js';

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
 * Options of {@link createA2aHandler}: what to serve (an `agent`, a `runner` or a `graph`) and how.
 *
 * @example
 * ```ts
 * import { MemoryStore } from '@weft/compose';
 * declare const agent: import('@weft/adk').Agent;
 * const options: A2aHandlerOptions = { agent, taskStore: new MemoryStore(), pushNotifications: true };
 * ```
 */
export type A2aHandlerOptions = A2aTarget & {
  /**
   * Where tasks and push configs live (default: in memory). Give the same store, session service and
   * checkpointer to a restarted server and it continues every task (a SQLite file, a PostgreSQL schema).
   */
  readonly taskStore?: Store;
  /** What the agent card says beyond what is derived (version, provider, skills…). */
  readonly card?: A2aCardOptions;
  /**
   * The public URL of the agent (its JSON-RPC endpoint; the card is under it at
   * `/.well-known/agent-card.json`). Default: each request's own URL (its `Host`, which the guard checks).
   */
  readonly url?: string;
  /**
   * Push notifications (webhooks a client registers per task): on by default; `allowUrl` decides which
   * webhook URLs are accepted (default: `http(s)` to hosts that are not this machine or a private
   * network by name), `timeoutMs` bounds each delivery (default 5 s).
   */
  readonly pushNotifications?: boolean | { readonly allowUrl?: PushUrlPolicy; readonly timeoutMs?: number };
  /** Bearer tokens: one `token`, or `authenticate` mapping a token to a principal (see {@link A2aAuthOptions}). */
  readonly auth?: A2aAuthOptions;
  /**
   * Host, Origin, JSON and body checks (see {@link A2aGuardOptions}); `false` when the app the handler is
   * mounted in applies the same checks to it (the playground does).
   */
  readonly guard?: A2aGuardOptions | false;
};

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
  const target = targetOf(options);
  const auth = requestAuth(options.auth);
  const store = options.taskStore ?? new MemoryStore();
  const tasks = new StoreTaskStore(store, target.name);
  const push = options.pushNotifications ?? true;
  const pushStore = push
    ? new StorePushNotificationStore(store, target.name, typeof push === 'object' ? push.allowUrl : undefined)
    : undefined;
  const cardAt = (url: string) =>
    buildAgentCard(
      {
        name: target.name,
        description: target.description,
        skills: target.skills,
        url,
        pushNotifications: push !== false,
        bearer: auth.bearer,
      },
      options.card,
    );
  const executor = new WeftExecutor(target.turns);
  const buses = new DefaultExecutionEventBusManager();
  const sender = pushStore
    ? createLegacyAwarePushNotificationSender(pushStore, {
        timeout: typeof push === 'object' ? (push.timeoutMs ?? 5000) : 5000,
      })
    : undefined;
  const requestHandler = new WeftRequestHandler(
    cardAt('http://localhost/'),
    tasks,
    executor,
    buses,
    pushStore,
    sender,
  ).admitWith(tasks, target.turns.oneTaskPerContext);
  const endpoint = new JsonRpcEndpoint(requestHandler);
  const guard = options.guard;
  const deliveries = new Set<Promise<void>>();
  let closed = false;
  const limit = (guard !== false ? guard?.maxBodyBytes : undefined) ?? 1024 * 1024;
  if (!(limit > 0))
    throw new WeftA2aError('INVALID_ARGUMENT', `guard.maxBodyBytes must be positive, got ${limit}`);

  const handle = async (request: Request): Promise<Response> => {
    if (guard !== false) checkRequest(request, guard ?? {});
    const url = new URL(request.url);
    if (request.method === 'GET' && url.pathname.endsWith(A2A_AGENT_CARD_PATH)) {
      const card = cardAt(options.url ?? baseOf(url));
      const legacy = isLegacyVersion(request.headers.get(A2A_VERSION_HEADER));
      return Response.json(legacy ? legacyAgentCard(card) : AgentCard.toJSON(card), {
        headers: { vary: A2A_VERSION_HEADER, 'cache-control': 'no-cache' },
      });
    }
    if (request.method !== 'POST')
      throw new Refusal(
        404,
        'NOT_FOUND',
        `no A2A route ${request.method} ${url.pathname}; the card is at …${A2A_AGENT_CARD_PATH}`,
      );
    if (closed) throw new Refusal(503, 'CLOSED', 'this agent is shutting down');
    const user = await auth.check(request);
    const text = await readBody(request, limit);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return Response.json(
        {
          jsonrpc: '2.0',
          id: null,
          error: { code: A2A_ERROR_CODE.PARSE_ERROR, message: 'Invalid JSON payload.' },
        },
        { status: 400 },
      );
    }
    const context = new ServerCallContext({
      ...(user ? { user } : {}),
      ...versionOf(request),
      requestedExtensions: Extensions.parseServiceParameter(
        request.headers.get(HTTP_EXTENSION_HEADER) ?? request.headers.get('X-A2A-Extensions') ?? undefined,
      ),
    });
    return endpoint.respond(body, context, await requestHandler.getAgentCard());
  };

  return {
    name: target.name,
    card: cardAt,
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

function versionOf(request: Request): { requestedVersion?: string } {
  const version = request.headers.get(A2A_VERSION_HEADER);
  return version ? { requestedVersion: version } : {};
}

function isLegacyVersion(version: string | null): boolean {
  if (version === null || version.trim() === '') return true;
  const [major, minor] = version.split('.').map(Number);
  return major === 0 && (minor ?? 0) >= 3;
}

function refusal(error: Refusal): Response {
  const headers: Record<string, string> =
    error.status === 401 ? { 'www-authenticate': 'Bearer realm="weft-a2a"' } : {};
  return Response.json(
    { error: { code: error.code, message: error.message } },
    { status: error.status, headers },
  );
}
