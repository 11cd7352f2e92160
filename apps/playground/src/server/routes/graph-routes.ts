import { Hono } from 'hono';
import { entryOr404, type ServerContext } from '../server-context.ts';

/**
 * `GET /api/graphs` (every graph and agent with its topology and input schema, load problems, and the
 * model prices the web app computes costs with)
 * and `GET /api/graphs/:graphId`.
 *
 * @example
 * ```ts
 * app.route('/api/graphs', graphRoutes(ctx));
 * ```
 */
export function graphRoutes(ctx: ServerContext): Hono {
  const routes = new Hono();
  routes.get('/', (c) => {
    const registry = ctx.registry();
    return c.json({
      graphs: [...registry.entries.values()].map((e) => e.info),
      problems: registry.problems,
      prices: registry.prices,
    });
  });
  routes.get('/:graphId', (c) => c.json(entryOr404(ctx, c.req.param('graphId')).info));
  return routes;
}
