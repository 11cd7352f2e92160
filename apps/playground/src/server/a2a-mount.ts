import { type A2aHandler, createA2aHandler } from '@weft/a2a';
import type { SessionService } from '@weft/adk';
import type { Checkpointer, Store } from '@weft/compose';
import type { Hono } from 'hono';
import { type GraphEntryOptions, isAgent, isCompiledGraph, type PlaygroundApp } from './define-app.ts';
import { HttpError } from './http-error.ts';
import { agentList } from './registry.ts';

/** The stores A2A tasks of the playground's agents and graphs live in (its SQLite file). */
export interface A2aMountStores {
  readonly checkpointer: Checkpointer;
  readonly sessionService: SessionService;
  readonly taskStore: Store;
  /** The playground's access token, when it has one: the cards declare it, requests present it. */
  readonly token?: string | undefined;
}

/**
 * Every agent and graph of the app served over the Agent2Agent protocol under `/a2a/<id>/` (its card at
 * `/a2a/<id>/.well-known/agent-card.json`), through `@weft/a2a`, behind the playground's own guard
 * (Host, Origin, JSON writes, body cap, token). Tasks, sessions and checkpoints live in the playground's
 * SQLite file, so tasks left running when `weft dev` stopped continue when it starts again.
 */
export class A2aMount {
  #handlers = new Map<string, A2aHandler>();
  readonly #retired: A2aHandler[] = [];

  constructor(private readonly stores: A2aMountStores) {}

  /** Serves `app`'s agents and graphs (again after a reload; tasks of the old ones run to their end). */
  serve(app: PlaygroundApp): void {
    const next = new Map<string, A2aHandler>();
    const { checkpointer, sessionService, taskStore, token } = this.stores;
    const shared = {
      taskStore,
      guard: false as const,
      ...(token ? { auth: { token, required: true } } : {}),
    };
    for (const [id, value] of Object.entries(app.graphs ?? {})) {
      const options: GraphEntryOptions | undefined = isCompiledGraph(value) ? { graph: value } : value;
      if (!options || !isCompiledGraph(options.graph)) continue;
      const description = options.description ? { description: options.description } : {};
      next.set(id, createA2aHandler({ graph: options.graph, checkpointer, ...description, ...shared }));
    }
    for (const [id, value] of agentList(app.agents)) {
      const agent = isAgent(value) ? value : value.agent;
      if (!isAgent(agent)) continue;
      next.set(id, createA2aHandler({ agent, sessionService, checkpointer, ...shared }));
    }
    this.#retired.push(...this.#handlers.values());
    this.#handlers = next;
  }

  /** Continues the A2A tasks a stopped playground left running (call once, at start). */
  async recover(): Promise<void> {
    await Promise.all([...this.#handlers.values()].map((handler) => handler.recover()));
  }

  /** Adds the `/a2a/<id>/…` routes to the playground's app. */
  route(app: Hono): void {
    const forward = (id: string, request: Request): Promise<Response> => {
      const handler = this.#handlers.get(id);
      if (!handler) throw new HttpError(404, 'NOT_FOUND', `no agent or graph "${id}" is served over A2A`);
      return handler.fetch(request);
    };
    app.all('/a2a/:id', (c) => forward(c.req.param('id'), c.req.raw));
    app.all('/a2a/:id/*', (c) => forward(c.req.param('id'), c.req.raw));
  }

  /** Stops the running A2A tasks (they stay `working`, for the next start to continue). */
  async close(): Promise<void> {
    await Promise.all([...this.#retired, ...this.#handlers.values()].map((handler) => handler.close()));
  }
}
