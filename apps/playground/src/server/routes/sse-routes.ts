import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { HttpError } from '../http-error.ts';
import type { LiveRun } from '../live-run.ts';
import type { ServerContext } from '../server-context.ts';

/**
 * Runs by id: `GET /:runId`, `POST /:runId/stop` (aborts it; answers once it has ended, as
 * `cancelled`) and `GET /:runId/events`, a Server-Sent Events stream of the run's events (compose's
 * `RunEvent`s, JSON-safe, `id` = their `seq`) — the backlog first (after `?after=` or `Last-Event-ID`),
 * then live ones, closing with an `end` message whose data is the run's final `RunInfo`. A client that
 * reads slowly slows the run (it waits while this stream lags; see `LiveRun`), and loses no event.
 *
 * @example
 * ```ts
 * app.route('/api/runs', runRoutes(ctx));
 * ```
 */
export function runRoutes(ctx: ServerContext): Hono {
  const routes = new Hono();
  const runOr404 = (runId: string): LiveRun => {
    const run = ctx.runs.get(runId);
    if (!run)
      throw new HttpError(
        404,
        'NOT_FOUND',
        `no run "${runId}" (runs are kept in memory while the server runs)`,
      );
    return run;
  };
  routes.get('/:runId', (c) => c.json(runOr404(c.req.param('runId')).info));
  routes.post('/:runId/stop', async (c) => {
    const run = runOr404(c.req.param('runId'));
    await ctx.runs.stop(run.info.id);
    return c.json(run.info);
  });
  routes.get('/:runId/events', (c) => {
    const run = runOr404(c.req.param('runId'));
    const after = Number(c.req.query('after') ?? c.req.header('Last-Event-ID') ?? -1);
    return streamSSE(c, async (stream) => {
      // Read at the pace the client takes them: each event is written (and the write has drained)
      // before the next is read, and the run waits while this reader lags (LiveRun.push).
      const reader = run.read(Number.isFinite(after) ? after : -1);
      stream.onAbort(() => reader.close());
      try {
        for (let event = await reader.next(); event; event = await reader.next()) {
          await stream.writeSSE({ id: String(event.seq), data: JSON.stringify(event) });
        }
        if (!stream.aborted) await stream.writeSSE({ event: 'end', data: JSON.stringify(run.info) });
      } finally {
        reader.close();
      }
    });
  });
  return routes;
}
