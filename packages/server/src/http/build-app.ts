// The Hono app: the guard (Host, Origin, CORS, JSON writes, body cap), the auth hook, the routes, and
// errors answered as `{ error, message }`.
import { Hono } from 'hono';
import { type A2aMount, isA2aCard } from '../a2a/a2a-mount.js';
import { WeftServerError } from '../errors/server-error.js';
import type { Api, ApiEnv } from './api-context.js';
import { assistantRoutes } from './assistant-routes.js';
import type { ServerAuth } from './auth.js';
import { cronRoutes } from './cron-routes.js';
import { errorResponse } from './http-kit.js';
import { openApiDocument } from './openapi.js';
import { checkRequest, type GuardOptions } from './request-guard.js';
import { runRoutes } from './run-routes.js';
import { storeRoutes } from './store-routes.js';
import { threadRoutes } from './thread-routes.js';

const PUBLIC = new Set(['/ok', '/health', '/ready', '/openapi.json']);
const VERSION = '0.1.0';

/** What the app needs besides the routes' `Api`. */
export interface AppOptions {
  readonly guard: GuardOptions | false;
  readonly auth: ServerAuth | undefined;
  /** Whether the server can take requests (stores reachable, not shutting down). */
  readonly ready: () => Promise<boolean>;
  /** The graphs served over A2A under `/a2a/<id>/`, when they are. */
  readonly a2a?: A2aMount | undefined;
}

/** Builds the server's Hono app. */
export function buildApp(api: Api, options: AppOptions): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  const origins = options.guard === false ? [] : (options.guard.allowedOrigins ?? []);
  app.onError((error) => {
    if (!WeftServerError.isInstance(error) && !(error as { status?: number }).status)
      api.context.log('error', 'request failed', {
        error: error instanceof Error ? error.message : String(error),
      });
    return errorResponse(error);
  });
  app.use('*', async (c, next) => {
    const origin = c.req.header('origin');
    const cors = origin !== undefined && origins.includes(origin);
    const allow = () => {
      if (!cors) return;
      c.header('Access-Control-Allow-Origin', origin);
      c.header('Vary', 'Origin');
      c.header('Access-Control-Expose-Headers', 'Content-Location, Location, X-Pagination-Next');
    };
    allow();
    if (c.req.method === 'OPTIONS' && cors) {
      c.header('Access-Control-Allow-Methods', 'GET, POST, PUT, PATCH, DELETE, OPTIONS');
      c.header('Access-Control-Allow-Headers', 'Content-Type, Authorization, X-Api-Key, Last-Event-ID');
      c.header('Access-Control-Max-Age', '600');
      return c.body(null, 204);
    }
    if (options.guard !== false) checkRequest(c.req.raw, options.guard);
    if (options.auth && !PUBLIC.has(c.req.path) && !(options.a2a && isA2aCard(c.req.method, c.req.path))) {
      const user = await Promise.resolve(options.auth.authenticate(c.req.raw)).catch(() => undefined);
      if (!user) throw new WeftServerError('UNAUTHORIZED', 'missing or invalid credentials');
      c.set('user', user);
    }
    await next();
    allow(); // again on the final response: a streamed one is built by the route, without them
    return undefined;
  });
  app.get('/ok', (c) => c.json({ ok: true }));
  app.get('/health', (c) => c.json({ ok: true }));
  app.get('/ready', async (c) =>
    (await options.ready()) ? c.json({ ready: true }) : c.json({ ready: false }, 503),
  );
  app.get('/info', (c) =>
    c.json({ version: VERSION, server: 'weft', flags: { assistants: true, crons: true } }),
  );
  app.get('/openapi.json', (c) => c.json(openApiDocument(VERSION)));
  assistantRoutes(app, api);
  threadRoutes(app, api);
  runRoutes(app, api);
  storeRoutes(app, api);
  cronRoutes(app, api);
  options.a2a?.route(app);
  app.notFound((c) => c.json({ error: 'NOT_FOUND', message: `no route ${c.req.method} ${c.req.path}` }, 404));
  return app;
}
