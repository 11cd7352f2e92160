// /runs and /threads/:id/runs: create (background), stream, wait, batch, list, get, delete, join,
// join a stream (with Last-Event-ID), cancel.
import type { Context } from 'hono';
import { notFound, WeftServerError } from '../errors/server-error.js';
import type {
  AssistantRecord,
  JsonObject,
  RunConfig,
  RunKwargs,
  RunRecord,
} from '../records/record-types.js';
import { publicView } from '../records/record-types.js';
import type { RunRequest } from '../runs/run-manager.js';
import { API_STREAM_MODES } from '../runs/stream-mapping.js';
import { type Api, type ApiApp, type ApiEnv, assistantFor, ownerOf, threadFor } from './api-context.js';
import { requirePermission } from './auth.js';
import { field, jsonArray, jsonBody, selected } from './http-kit.js';
import { sseResponse } from './sse.js';

type C = Context<ApiEnv>;

/** Adds the run routes. */
export function runRoutes(app: ApiApp, api: Api): void {
  const { records } = api.context;
  const write = (c: C) => requirePermission(c.get('user'), 'threads', 'write');
  const read = (c: C) => requirePermission(c.get('user'), 'threads', 'read');
  const location = (run: RunRecord, stateless: boolean) =>
    stateless ? `/runs/${run.run_id}` : `/threads/${run.thread_id}/runs/${run.run_id}`;

  const create = async (c: C, threadId: string | null, input?: JsonObject) => {
    write(c);
    const payload = input ?? (await jsonBody(c, api.maxBodyBytes));
    if (threadId !== null) {
      const existing = await records.thread(threadId);
      if (existing && existing.owner !== ownerOf(c)) throw notFound('thread', threadId);
    }
    return api.runs.create(await runRequest(api, c, threadId, payload));
  };

  const stream = async (c: C, threadId: string | null) => {
    const payload = await jsonBody(c, api.maxBodyBytes);
    const run = await create(c, threadId, payload);
    const disconnect = new AbortController();
    if (payload.on_disconnect === 'cancel')
      disconnect.signal.addEventListener('abort', () => void cancelIfRunning(api, run.run_id));
    return sseResponse(api.runs.follow(run.run_id, -1, disconnect.signal), {
      disconnect,
      headers: {
        'content-location': location(run, threadId === null),
        location: `${location(run, threadId === null)}/stream`,
      },
    });
  };

  const wait = async (c: C, threadId: string | null) => {
    const run = await create(c, threadId);
    c.header('Content-Location', location(run, threadId === null));
    const controller = new AbortController();
    c.req.raw.signal.addEventListener('abort', () => controller.abort(), { once: true });
    return c.json(await api.runs.join(run.run_id, controller.signal));
  };

  app.post('/runs', async (c) => {
    const run = await create(c, null);
    c.header('Content-Location', location(run, true));
    return c.json(publicView(run));
  });
  app.post('/runs/stream', (c) => stream(c, null));
  app.post('/runs/wait', (c) => wait(c, null));
  app.post('/runs/batch', async (c) => {
    const payloads = await jsonArray(c, api.maxBodyBytes);
    const runs: RunRecord[] = [];
    for (const payload of payloads) runs.push(await create(c, null, payload));
    return c.json(runs.map(publicView));
  });
  app.get('/runs/:runId/stream', async (c) => {
    read(c);
    const run = await runFor(api, c, c.req.param('runId'));
    return joinStream(api, c, run);
  });

  app.post('/threads/:id/runs', async (c) => {
    const run = await create(c, c.req.param('id'));
    c.header('Content-Location', location(run, false));
    return c.json(publicView(run));
  });
  app.post('/threads/:id/runs/stream', (c) => stream(c, c.req.param('id')));
  app.post('/threads/:id/runs/wait', (c) => wait(c, c.req.param('id')));

  app.get('/threads/:id/runs', async (c) => {
    read(c);
    const thread = await threadFor(api, c, c.req.param('id'));
    const limit = Number(c.req.query('limit') ?? 10);
    const offset = Number(c.req.query('offset') ?? 0);
    const status = c.req.query('status');
    const select = c.req.queries('select');
    const runs = (await records.runs(thread.thread_id))
      .filter((run) => status === undefined || run.status === status)
      .reverse()
      .slice(offset, offset + limit);
    return c.json(runs.map((run) => selected(publicView(run), select)));
  });

  app.get('/threads/:id/runs/:runId', async (c) => {
    read(c);
    return c.json(publicView(await runFor(api, c, c.req.param('runId'), c.req.param('id'))));
  });

  app.delete('/threads/:id/runs/:runId', async (c) => {
    write(c);
    const run = await runFor(api, c, c.req.param('runId'), c.req.param('id'));
    if (run.status === 'pending' || run.status === 'running')
      throw new WeftServerError('CONFLICT', `run "${run.run_id}" is ${run.status}; cancel it first`);
    await records.deleteRun(run.run_id);
    await api.context.events.drop(run.run_id);
    return c.body(null, 204);
  });

  app.get('/threads/:id/runs/:runId/join', async (c) => {
    read(c);
    const run = await runFor(api, c, c.req.param('runId'), c.req.param('id'));
    const controller = new AbortController();
    c.req.raw.signal.addEventListener('abort', () => controller.abort(), { once: true });
    return c.json(await api.runs.join(run.run_id, controller.signal));
  });

  app.get('/threads/:id/runs/:runId/stream', async (c) => {
    read(c);
    const run = await runFor(api, c, c.req.param('runId'), c.req.param('id'));
    return joinStream(api, c, run);
  });

  app.post('/threads/:id/runs/:runId/cancel', async (c) => {
    write(c);
    const run = await runFor(api, c, c.req.param('runId'), c.req.param('id'));
    const action = c.req.query('action') === 'rollback' ? 'rollback' : 'interrupt';
    const wait = ['1', 'true'].includes(c.req.query('wait') ?? '');
    await api.runs.cancel([run], action);
    if (wait) await api.runs.settled([run.run_id]);
    return c.body(null, wait ? 204 : 202);
  });
}

/** The run `runId` (of thread `threadId` when given) if its thread is the caller's. */
async function runFor(api: Api, c: C, runId: string, threadId?: string): Promise<RunRecord> {
  if (threadId !== undefined) await threadFor(api, c, threadId);
  const run = await api.context.records.run(runId);
  if (!run || run.owner !== ownerOf(c) || (threadId !== undefined && run.thread_id !== threadId))
    throw notFound('run', runId);
  return run;
}

function joinStream(api: Api, c: C, run: RunRecord): Response {
  const header = c.req.header('Last-Event-ID');
  const after = header === undefined || header === '' || Number.isNaN(Number(header)) ? -1 : Number(header);
  const disconnect = new AbortController();
  if (['1', 'true'].includes(c.req.query('cancel_on_disconnect') ?? ''))
    disconnect.signal.addEventListener('abort', () => void cancelIfRunning(api, run.run_id));
  return sseResponse(api.runs.follow(run.run_id, after, disconnect.signal), { disconnect, headers: {} });
}

async function cancelIfRunning(api: Api, runId: string): Promise<void> {
  const run = await api.context.records.run(runId);
  if (run && (run.status === 'pending' || run.status === 'running'))
    await api.runs.cancel([run], 'interrupt');
}

async function runRequest(api: Api, c: C, threadId: string | null, payload: JsonObject): Promise<RunRequest> {
  const assistantId = field.string(payload, 'assistant_id');
  if (assistantId === undefined) throw new WeftServerError('INVALID_ARGUMENT', '"assistant_id" is required');
  const assistant = await assistantFor(api, c, assistantId);
  return buildRunRequest(api, { assistant, owner: ownerOf(c), threadId }, payload);
}

/** A run request from a run-create payload (as the routes and crons receive it), fields checked. */
export function buildRunRequest(
  api: Api,
  target: {
    readonly assistant: AssistantRecord;
    readonly owner: string | null;
    readonly threadId: string | null;
  },
  payload: JsonObject,
): RunRequest {
  const { assistant, owner, threadId } = target;
  const modes = payload.stream_mode;
  const streamMode = (
    Array.isArray(modes) ? modes : typeof modes === 'string' ? [modes] : ['values']
  ) as string[];
  for (const mode of streamMode)
    if (!(API_STREAM_MODES as readonly string[]).includes(mode))
      throw new WeftServerError(
        'INVALID_ARGUMENT',
        `"stream_mode" "${mode}" is not one of ${API_STREAM_MODES.join(', ')}`,
      );
  const breakpoints = (name: string) =>
    payload[name] === '*' ? '*' : (field.strings(payload, name) ?? null);
  const checkpoint = field.object(payload, 'checkpoint');
  const kwargs: RunKwargs = {
    input: payload.input ?? null,
    command: field.object(payload, 'command') ?? null,
    config: (field.object(payload, 'config') ?? {}) as RunConfig,
    context: field.object(payload, 'context') ?? {},
    stream_mode: streamMode.length === 0 ? ['values'] : streamMode,
    stream_subgraphs: field.boolean(payload, 'stream_subgraphs') ?? false,
    interrupt_before: breakpoints('interrupt_before'),
    interrupt_after: breakpoints('interrupt_after'),
    checkpoint_id:
      field.string(payload, 'checkpoint_id') ??
      (typeof checkpoint?.checkpoint_id === 'string' ? checkpoint.checkpoint_id : null),
    webhook: checkWebhook(api, field.string(payload, 'webhook')),
    on_completion: field.oneOf(payload, 'on_completion', ['delete', 'keep'] as const) ?? 'delete',
  };
  return {
    assistant,
    threadId,
    kwargs,
    metadata: field.object(payload, 'metadata') ?? {},
    multitaskStrategy:
      field.oneOf(payload, 'multitask_strategy', ['reject', 'interrupt', 'rollback', 'enqueue'] as const) ??
      'reject',
    ifNotExists: field.oneOf(payload, 'if_not_exists', ['create', 'reject'] as const) ?? 'reject',
    afterSeconds: field.number(payload, 'after_seconds') ?? 0,
    owner,
  };
}

/** The webhook URL if the server sends webhooks and may send to it. */
export function checkWebhook(api: Api, url: string | undefined): string | null {
  if (url === undefined) return null;
  if (!api.webhooks)
    throw new WeftServerError(
      'INVALID_ARGUMENT',
      '"webhook": this server sends no webhooks (start it with the webhooks option)',
    );
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new WeftServerError('INVALID_ARGUMENT', `"webhook" must be an http(s) URL, got "${url}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new WeftServerError('INVALID_ARGUMENT', `"webhook" must be an http(s) URL, got "${url}"`);
  if (!api.webhooks.allows(parsed))
    throw new WeftServerError('FORBIDDEN', `"webhook": this server does not send webhooks to ${parsed.host}`);
  return url;
}
