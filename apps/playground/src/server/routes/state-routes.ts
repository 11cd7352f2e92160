import { InputValidationError, type StateSnapshot } from '@weft/compose';
import { Hono } from 'hono';
import { z } from 'zod';
import type { SnapshotInfo } from '../../shared/wire.ts';
import { HttpError } from '../http-error.ts';
import { toJson } from '../json-safe.ts';
import { entryOr404, readBody, type ServerContext, threadOr404 } from '../server-context.ts';

const updateBody = z.object({
  values: z.record(z.string(), z.unknown(), { error: 'values must be an object of state keys' }),
  asNode: z.string().min(1).optional(),
  checkpointId: z.string().min(1).optional(),
});

/**
 * Converts a state snapshot to JSON for the API.
 *
 * @example
 * ```ts
 * const latest = snapshotInfo(await graph.getState(threadId));
 * ```
 */
export function snapshotInfo(snapshot: StateSnapshot<unknown>): SnapshotInfo {
  return {
    checkpointId: snapshot.checkpointId,
    parentId: snapshot.parentId ?? null,
    step: snapshot.step,
    source: snapshot.source,
    createdAt: snapshot.createdAt,
    values: toJson(snapshot.values),
    next: [...snapshot.next],
    interrupts: snapshot.interrupts.map((i) => ({ id: i.id, value: toJson(i.value), path: [...i.path] })),
    metadata: toJson(snapshot.metadata),
  };
}

/**
 * Writes `values` as a new checkpoint (on top of `checkpointId` when given: a fork) and returns its id.
 *
 * @throws HttpError 400 naming each wrong key of `values` (`values.count`), or a bad `asNode`.
 * @example
 * ```ts
 * const id = await writeValues(graph, threadId, { count: 10 }, { checkpointId });
 * ```
 */
export async function writeValues(
  entry: ReturnType<typeof entryOr404>,
  threadId: string,
  values: Record<string, unknown>,
  options: { readonly asNode?: string | undefined; readonly checkpointId?: string | undefined },
): Promise<string> {
  if (options.asNode !== undefined && !entry.nodes.has(options.asNode)) {
    const nodes = [...entry.nodes].join(', ');
    throw new HttpError(400, 'INVALID_BODY', `asNode: "${options.asNode}" is not a node (nodes: ${nodes})`, [
      { path: 'asNode', message: `"${options.asNode}" is not a node` },
    ]);
  }
  try {
    return await entry.graph.updateState(threadId, values, {
      ...(options.asNode === undefined ? {} : { asNode: options.asNode }),
      ...(options.checkpointId === undefined ? {} : { checkpointId: options.checkpointId }),
    });
  } catch (error) {
    if (error instanceof InputValidationError || (error as { code?: string }).code === 'INVALID_INPUT') {
      const issues = (error as InputValidationError).issues.map((i) => ({
        path: ['values', ...i.path.map(String)].join('.'),
        message: i.message,
      }));
      throw new HttpError(
        400,
        'INVALID_VALUES',
        issues.map((i) => `${i.path}: ${i.message}`).join('; '),
        issues,
      );
    }
    throw error;
  }
}

/**
 * Thread state: `GET /:threadId/state` (latest, or `?checkpointId=`), `GET /:threadId/history` (every
 * checkpoint of every branch, newest first), `GET /:threadId/session` (agents: the current session's state
 * and committed events, and the thread's session branches) and `POST /:threadId/state` (update, as a new
 * checkpoint).
 *
 * @example
 * ```ts
 * app.route('/api/threads', stateRoutes(ctx));
 * ```
 */
export function stateRoutes(ctx: ServerContext): Hono {
  const routes = new Hono();
  routes.get('/:threadId/state', async (c) => {
    const thread = threadOr404(ctx, c.req.param('threadId'));
    const entry = entryOr404(ctx, thread.graphId);
    const checkpointId = c.req.query('checkpointId');
    const snapshot = await entry.graph.getState(thread.id, checkpointId ? { checkpointId } : {});
    return c.json(snapshot ? snapshotInfo(snapshot) : null);
  });
  routes.get('/:threadId/history', async (c) => {
    const thread = threadOr404(ctx, c.req.param('threadId'));
    const entry = entryOr404(ctx, thread.graphId);
    return c.json((await entry.graph.getStateHistory(thread.id)).map(snapshotInfo));
  });
  routes.get('/:threadId/session', async (c) => {
    const thread = threadOr404(ctx, c.req.param('threadId'));
    const entry = entryOr404(ctx, thread.graphId);
    if (!entry.session)
      throw new HttpError(
        400,
        'NOT_AN_AGENT',
        `"${entry.info.id}" is a graph; only agent threads have sessions`,
      );
    const sessionId = c.req.query('sessionId') || undefined;
    const session = await entry.session(thread.id, sessionId);
    if (!session)
      throw new HttpError(404, 'NOT_FOUND', `thread "${thread.id}" has no session "${sessionId}"`);
    return c.json(toJson(session));
  });
  routes.post('/:threadId/state', async (c) => {
    const thread = threadOr404(ctx, c.req.param('threadId'));
    const body = await readBody(c, updateBody);
    const entry = entryOr404(ctx, thread.graphId);
    if (ctx.runs.active(thread.id))
      throw new HttpError(409, 'THREAD_BUSY', `thread "${thread.id}" is running`);
    const checkpointId = await writeValues(entry, thread.id, body.values, body);
    return c.json({ checkpointId });
  });
  return routes;
}
