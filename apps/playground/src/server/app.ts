import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import type { A2aMount } from './a2a-mount.ts';
import { bodyLimit } from './guard/body-limit.ts';
import { type GuardOptions, requestGuard } from './guard/request-guard.ts';
import { errorResponse } from './http-error.ts';
import { type EvalRouteContext, evalRoutes } from './routes/eval-routes.ts';
import { graphRoutes } from './routes/graph-routes.ts';
import { type MemoryRouteContext, memoryRoutes } from './routes/memory-routes.ts';
import { threadRunRoutes } from './routes/run-routes.ts';
import { runRoutes } from './routes/sse-routes.ts';
import { stateRoutes } from './routes/state-routes.ts';
import { threadRoutes } from './routes/thread-routes.ts';
import type { ServerContext } from './server-context.ts';

/** Options of {@link createApp}. */
export interface CreateAppOptions {
  /** Folder of the built web app; without one, `/` explains how to build it. */
  readonly webDir?: string | undefined;
  /** Who may call (default: loopback names and `127.0.0.1`, no token); see {@link requestGuard}. */
  readonly guard?: GuardOptions | undefined;
  /** Cap on a request body in bytes (default 10 MB; 413 past it). */
  readonly maxBodyBytes?: number | undefined;
  /** The Evals tab's sets and runs (without it, `/api/evals` is not served). */
  readonly evals?: EvalRouteContext | undefined;
  /** The Memory tab and thread artifacts (without it, `/api/memory` and `/api/artifacts` are not served). */
  readonly memory?: MemoryRouteContext | undefined;
  /** Agents and graphs served over A2A under `/a2a/<id>/` (without it, not served). */
  readonly a2a?: A2aMount | undefined;
}

/**
 * The playground's HTTP app: the JSON API under `/api` (graphs, threads, state, runs, SSE) and, when
 * `webDir` holds the built web app, the web app itself. Every request passes the guard first (Host
 * allow-list, token, same origin, JSON writes) and bodies are capped. Errors become JSON answers (4xx
 * for bad requests, naming the field); nothing a client sends can crash the server.
 *
 * @example
 * ```ts
 * const app = createApp(ctx, { webDir: 'dist/web', guard: { host: '127.0.0.1' } });
 * serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 4317 });
 * ```
 */
export function createApp(ctx: ServerContext, options: CreateAppOptions = {}): Hono {
  const app = new Hono();
  app.onError((error, c) => {
    const { status, body } = errorResponse(error);
    if (status >= 500) console.error('[weft] request failed:', error);
    return c.json(body, status);
  });
  app.use('*', requestGuard(options.guard ?? { host: '127.0.0.1' }));
  app.use('*', bodyLimit(options.maxBodyBytes));
  app.get('/api/health', (c) => c.json({ ok: true }));
  app.route('/api/graphs', graphRoutes(ctx));
  app.route('/api/threads', threadRoutes(ctx));
  app.route('/api/threads', stateRoutes(ctx));
  app.route('/api/threads', threadRunRoutes(ctx));
  app.route('/api/runs', runRoutes(ctx));
  if (options.evals) app.route('/api/evals', evalRoutes(options.evals));
  if (options.memory) app.route('/api', memoryRoutes(options.memory));
  options.a2a?.route(app);
  app.all('/api/*', (c) =>
    c.json({ error: { code: 'NOT_FOUND', message: `no route ${c.req.method} ${c.req.path}` } }, 404),
  );
  const webDir = options.webDir;
  if (webDir && existsSync(join(webDir, 'index.html'))) {
    app.use('/*', serveStatic({ root: webDir }));
    app.get('/*', serveStatic({ root: webDir, path: 'index.html' }));
  } else {
    app.get('/', (c) =>
      c.html(
        '<!doctype html><title>weft dev</title><p>The web app is not built. Run <code>pnpm --filter @weft/playground build</code> (or <code>pnpm start</code>), then reload. The API is at <a href="/api/graphs">/api/graphs</a>.</p>',
      ),
    );
  }
  return app;
}
