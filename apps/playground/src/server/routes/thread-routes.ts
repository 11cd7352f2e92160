import { Hono } from 'hono';
import { z } from 'zod';
import { HttpError } from '../http-error.ts';
import {
  entryOr404,
  readBody,
  requireBreakpoints,
  type ServerContext,
  threadOr404,
} from '../server-context.ts';

const createThread = z.object({
  graphId: z.string().min(1, 'name the graph or agent the thread runs'),
  title: z.string().max(200).optional(),
});

const breakpointsBody = z.object({
  before: z.array(z.string()).default([]),
  after: z.array(z.string()).default([]),
});

/**
 * Threads: `GET /` (optionally `?graphId=`), `POST /` create, `GET /:threadId` (with its runs),
 * `DELETE /:threadId` (stops its run, drops its checkpoints), `PUT /:threadId/breakpoints`.
 *
 * @example
 * ```ts
 * app.route('/api/threads', threadRoutes(ctx));
 * ```
 */
export function threadRoutes(ctx: ServerContext): Hono {
  const routes = new Hono();
  routes.get('/', async (c) => {
    await ctx.runs.refresh();
    const graphId = c.req.query('graphId');
    const threads = ctx.threads.list(graphId || undefined);
    return c.json(threads.map((t) => (ctx.runs.active(t.id) ? { ...t, status: 'running' } : t)));
  });
  routes.post('/', async (c) => {
    const body = await readBody(c, createThread);
    entryOr404(ctx, body.graphId);
    return c.json(ctx.threads.create({ graphId: body.graphId, title: body.title }), 201);
  });
  routes.get('/:threadId', async (c) => {
    await ctx.runs.refresh();
    const thread = threadOr404(ctx, c.req.param('threadId'));
    return c.json({ thread, runs: ctx.runs.list(thread.id) });
  });
  routes.delete('/:threadId', async (c) => {
    const thread = threadOr404(ctx, c.req.param('threadId'));
    await ctx.runs.forget(thread.id);
    await ctx.registry().entries.get(thread.graphId)?.forget?.(thread.id);
    await ctx.checkpointer.deleteThread(thread.id);
    ctx.threads.delete(thread.id);
    return c.json({ deleted: thread.id });
  });
  routes.put('/:threadId/breakpoints', async (c) => {
    const thread = threadOr404(ctx, c.req.param('threadId'));
    const body = await readBody(c, breakpointsBody);
    const entry = entryOr404(ctx, thread.graphId);
    requireBreakpoints(entry);
    const issues = (['before', 'after'] as const).flatMap((key) =>
      body[key]
        .map((node, index) => ({ node, index }))
        .filter(({ node }) => !entry.nodes.has(node))
        .map(({ node, index }) => ({
          path: `${key}.${index}`,
          message: `"${node}" is not a node of ${entry.info.id} (nodes: ${[...entry.nodes].join(', ')})`,
        })),
    );
    if (issues.length > 0) {
      throw new HttpError(
        400,
        'INVALID_BODY',
        issues.map((i) => `${i.path}: ${i.message}`).join('; '),
        issues,
      );
    }
    return c.json(ctx.threads.setBreakpoints(thread.id, { before: body.before, after: body.after }));
  });
  return routes;
}
