import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { errorResponse } from './http-error.ts';
import { graphRoutes } from './routes/graph-routes.ts';
import { threadRunRoutes } from './routes/run-routes.ts';
import { runRoutes } from './routes/sse-routes.ts';
import { stateRoutes } from './routes/state-routes.ts';
import { threadRoutes } from './routes/thread-routes.ts';
import type { ServerContext } from './server-context.ts';

/**
 * The playground's HTTP app: the JSON API under `/api` (graphs, threads, state, runs, SSE) and, when
 * `webDir` holds the built web app, the web app itself. Errors become JSON answers (4xx for bad
 * requests, naming the field); nothing a client sends can crash the server.
 *
 * @example
 * ```ts
 * const app = createApp(ctx, { webDir: 'dist/web' });
 * serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 4317 });
 * ```
 */
export function createApp(ctx: ServerContext, options: { readonly webDir?: string | undefined } = {}): Hono {
  const app = new Hono();
  app.onError((error, c) => {
    const { status, body } = errorResponse(error);
    if (status >= 500) console.error('[weft] request failed:', error);
    return c.json(body, status);
  });
  app.get('/api/health', (c) => c.json({ ok: true }));
  app.route('/api/graphs', graphRoutes(ctx));
  app.route('/api/threads', threadRoutes(ctx));
  app.route('/api/threads', stateRoutes(ctx));
  app.route('/api/threads', threadRunRoutes(ctx));
  app.route('/api/runs', runRoutes(ctx));
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
