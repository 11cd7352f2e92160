// Every graph the server serves, also over the Agent2Agent protocol: `/a2a/<graph id>/` (or its default
// assistant's id), through `@weft/a2a`, behind the server's own front door and auth hook.
import { type A2aCardOptions, type A2aHandler, type A2aHandlerOptions, createA2aHandler } from '@weft/a2a';
import type { Context } from 'hono';
import { WeftServerError } from '../errors/server-error.js';
import { type ApiApp, type ApiEnv, defaultAssistantId } from '../http/api-context.js';
import { requirePermission } from '../http/auth.js';
import type { GuardOptions } from '../http/request-guard.js';
import { RESERVED_LABEL } from '../records/records.js';
import { graphOf, type ServerContext } from '../runs/server-context.js';
import { ReservedStore } from './reserved-store.js';

/**
 * The A2A side of `createServer` (its `a2a` option). Every graph is served at `/a2a/<graph id>/` (its
 * default assistant's id works too), its card at `/a2a/<graph id>/.well-known/agent-card.json`.
 *
 * @example
 * ```ts
 * const a2a: ServerA2aOptions = {
 *   cards: { support: { description: 'Answers questions about orders', version: '2.0.0' } },
 *   pushNotifications: true,
 * };
 * ```
 */
export interface ServerA2aOptions {
  /**
   * What each graph's card says beyond what is derived, by graph id (`description` is also its skill's
   * description). The card's name is the graph id unless given here.
   */
  readonly cards?: Readonly<Record<string, A2aCardOptions>>;
  /**
   * Push notifications (webhooks an A2A client registers for its task; see `@weft/a2a`). Off unless
   * given, as the LangGraph API's own webhooks are: `true` accepts `http(s)` URLs of public hosts,
   * or give `allowUrl` and `timeoutMs`.
   */
  readonly pushNotifications?: A2aHandlerOptions['pushNotifications'];
}

/** Whether a request is for an A2A agent card (public: it says how to authenticate). */
export function isA2aCard(method: string, path: string): boolean {
  return method === 'GET' && /^\/a2a\/[^/]+\/\.well-known\/agent-card\.json$/.test(path);
}

/**
 * The A2A handlers of a server's graphs: their tasks are documents of the server's store (under its
 * reserved namespace, out of the Store API's reach), their runs threads of its checkpointer, their
 * callers the identities the server's auth hook gives (each sees only their own tasks).
 */
export class A2aMount {
  readonly #handlers = new Map<string, A2aHandler>();
  readonly #byAssistant = new Map<string, string>();
  /** The identity the server's auth hook gave each request forwarded to a handler. */
  readonly #callers = new WeakMap<Request, string>();

  constructor(
    context: ServerContext,
    options: ServerA2aOptions,
    front: { readonly guard: GuardOptions | false; readonly auth: boolean },
  ) {
    const taskStore = new ReservedStore(context.store, [RESERVED_LABEL, 'a2a']);
    for (const id of Object.keys(options.cards ?? {}))
      if (!context.graphs.has(id))
        throw new WeftServerError(
          'INVALID_ARGUMENT',
          `createServer: a2a.cards names "${id}", which is not a served graph`,
        );
    for (const id of context.graphs.keys()) {
      const card = { name: id, ...options.cards?.[id] };
      this.#handlers.set(
        id,
        createA2aHandler({
          graph: graphOf(context, id),
          name: id,
          checkpointer: context.checkpointer,
          taskStore,
          card,
          ...(card.description ? { description: card.description } : {}),
          pushNotifications: options.pushNotifications ?? false,
          // The server's guard has checked Host and Origin; the handler applies the same rules again and
          // caps the JSON-RPC body it reads at the server's limit.
          guard: front.guard,
          ...(front.auth
            ? { auth: { authenticateRequest: (request: Request) => this.#callers.get(request) } }
            : {}),
        }),
      );
      this.#byAssistant.set(defaultAssistantId(id), id);
    }
  }

  /** Adds the `/a2a/<id>` routes to the server's app. */
  route(app: ApiApp): void {
    const forward = (c: Context<ApiEnv>) => {
      const id = c.req.param('id') ?? '';
      const graphId = this.#handlers.has(id) ? id : this.#byAssistant.get(id);
      const handler = graphId === undefined ? undefined : this.#handlers.get(graphId);
      if (!handler)
        throw new WeftServerError(
          'NOT_FOUND',
          `no graph "${id}" is served over A2A (each graph is, at /a2a/<graph id>/ or its default assistant's id)`,
        );
      const user = c.get('user');
      if (!isA2aCard(c.req.method, c.req.path)) {
        requirePermission(user, 'threads', 'write');
        if (user) this.#callers.set(c.req.raw, user.identity);
      }
      return handler.fetch(c.req.raw);
    };
    app.all('/a2a/:id', forward);
    app.all('/a2a/:id/*', forward);
  }

  /** Continues the A2A tasks a stopped server left running; resolves with how many. */
  async recover(): Promise<number> {
    const recovered = await Promise.all([...this.#handlers.values()].map((handler) => handler.recover()));
    return recovered.reduce((sum, ids) => sum + ids.length, 0);
  }

  /** Stops the running A2A tasks (they stay `working`, for the next server to continue). */
  async close(): Promise<void> {
    await Promise.all([...this.#handlers.values()].map((handler) => handler.close()));
  }
}
