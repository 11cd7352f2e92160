import { Command } from '@weft/compose';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import type { ThreadInfo } from '../../shared/wire.ts';
import { HttpError } from '../http-error.ts';
import type { RegistryEntry } from '../registry-entry.ts';
import type { StartRunOptions } from '../run-backend.ts';
import { entryOr404, readBody, type ServerContext, threadOr404 } from '../server-context.ts';
import { writeValues } from './state-routes.ts';

const startBody = z.object({ input: z.unknown() });
const continueBody = z.object({ checkpointId: z.string().min(1).optional() });
const resumeBody = z.object({
  value: z.unknown().refine((v) => v !== undefined, 'give the value to resume with'),
  interruptId: z.string().min(1).optional(),
});
const forkBody = z.object({
  checkpointId: z.string().min(1, 'name the checkpoint to fork from'),
  values: z.record(z.string(), z.unknown()).optional(),
  asNode: z.string().min(1).optional(),
});

type Target = { readonly thread: ThreadInfo; readonly entry: RegistryEntry };
type Handler = (
  c: Context,
  target: Target,
) => Promise<StartRunOptions | Omit<StartRunOptions, 'breakpoints' | 'threadId'>>;

async function startHandler(c: Context, { entry }: Target) {
  const body = await readBody(c, startBody);
  const parsed = entry.parseInput(body.input);
  if (!parsed.success) throw HttpError.fromZod(parsed.error, 'input');
  return { entry, kind: 'start' as const, input: parsed.data };
}

async function continueHandler(c: Context, { thread, entry }: Target) {
  const body = await readBody(c, continueBody);
  const at = body.checkpointId ? { checkpointId: body.checkpointId } : {};
  const state = await entry.graph.getState(thread.id, at);
  if (!state || state.next.length === 0) {
    throw new HttpError(409, 'NOTHING_TO_CONTINUE', `thread "${thread.id}" has no pending step to continue`);
  }
  const branchFrom = body.checkpointId;
  return { entry, kind: 'continue' as const, input: null, checkpointId: body.checkpointId, branchFrom };
}

async function resumeHandler(c: Context, { thread, entry }: Target) {
  const body = await readBody(c, resumeBody);
  const pending = (await entry.graph.getState(thread.id))?.interrupts ?? [];
  if (pending.length === 0)
    throw new HttpError(409, 'NOTHING_TO_RESUME', `thread "${thread.id}" is not paused`);
  if (body.interruptId !== undefined && !pending.some((i) => i.id === body.interruptId)) {
    const ids = pending.map((i) => i.id).join(', ');
    throw new HttpError(
      400,
      'INVALID_BODY',
      `interruptId: "${body.interruptId}" is not pending (pending: ${ids})`,
      [{ path: 'interruptId', message: 'not a pending interrupt' }],
    );
  }
  const resume = body.interruptId === undefined ? body.value : { [body.interruptId]: body.value };
  return { entry, kind: 'resume' as const, input: new Command({ resume }) };
}

function forkHandler(ctx: ServerContext): Handler {
  return async (c, { thread, entry }) => {
    const body = await readBody(c, forkBody);
    if (ctx.runs.active(thread.id))
      throw new HttpError(409, 'THREAD_BUSY', `thread "${thread.id}" is running`);
    const at = { checkpointId: body.checkpointId };
    const exists = await entry.graph.getState(thread.id, at).catch(() => undefined);
    if (!exists) {
      const message = `checkpointId: thread "${thread.id}" has no checkpoint "${body.checkpointId}"`;
      throw new HttpError(404, 'NOT_FOUND', message);
    }
    const checkpointId = body.values
      ? await writeValues(entry, thread.id, body.values, {
          asNode: body.asNode,
          checkpointId: body.checkpointId,
        })
      : body.checkpointId;
    return { entry, kind: 'fork' as const, input: null, checkpointId, branchFrom: body.checkpointId };
  };
}

/**
 * Runs on a thread: `POST /:threadId/runs` (start with an input, validated against the graph's input
 * schema), `/continue` (go on after a breakpoint or a stop), `/resume` (answer an interrupt), `/fork`
 * (edit the state at a checkpoint and run from there; history is kept), `GET /:threadId/runs`.
 * Each answers 202 with the run's info; follow it at `/api/runs/:runId/events`.
 *
 * @example
 * ```ts
 * app.route('/api/threads', threadRunRoutes(ctx));
 * ```
 */
export function threadRunRoutes(ctx: ServerContext): Hono {
  const routes = new Hono();
  const target = (c: Context): Target => {
    const thread = threadOr404(ctx, c.req.param('threadId') ?? '');
    return { thread, entry: entryOr404(ctx, thread.graphId) };
  };
  const runWith = (handler: Handler) => async (c: Context) => {
    const found = target(c);
    const options = await handler(c, found);
    const run = await ctx.runs.start({
      ...options,
      threadId: found.thread.id,
      breakpoints: found.thread.breakpoints,
    });
    return c.json(run.info, 202);
  };
  routes.get('/:threadId/runs', (c) => c.json(ctx.runs.list(target(c).thread.id)));
  routes.post('/:threadId/runs', runWith(startHandler));
  routes.post('/:threadId/continue', runWith(continueHandler));
  routes.post('/:threadId/resume', runWith(resumeHandler));
  routes.post('/:threadId/fork', runWith(forkHandler(ctx)));
  return routes;
}
