// /runs/crons and /threads/:id/runs/crons: schedules that run an assistant (on a thread, or each time
// on a new one), searched, updated, deleted — each user's own.
import type { Context } from 'hono';
import { notFound, WeftServerError } from '../errors/server-error.js';
import { nextRun, parseCron } from '../hooks/cron-schedule.js';
import { uuid7 } from '../records/ids.js';
import { type CronRecord, type JsonObject, publicView } from '../records/record-types.js';
import { type Api, type ApiApp, type ApiEnv, assistantFor, ownerOf, threadFor } from './api-context.js';
import { requirePermission } from './auth.js';
import { field, jsonBody, selected } from './http-kit.js';
import { buildRunRequest } from './run-routes.js';

type C = Context<ApiEnv>;

const RUN_FIELDS = [
  'input',
  'config',
  'context',
  'metadata',
  'interrupt_before',
  'interrupt_after',
  'webhook',
  'multitask_strategy',
  'checkpoint_id',
];

/** Adds the cron routes. */
export function cronRoutes(app: ApiApp, api: Api): void {
  const { records } = api.context;

  const create = async (c: C, threadId: string | null) => {
    requirePermission(c.get('user'), 'crons', 'write');
    const input = await jsonBody(c, api.maxBodyBytes);
    if (threadId !== null) await threadFor(api, c, threadId);
    const schedule = field.string(input, 'schedule');
    if (schedule === undefined) throw new WeftServerError('INVALID_ARGUMENT', '"schedule" is required');
    const assistantId = field.string(input, 'assistant_id');
    if (assistantId === undefined)
      throw new WeftServerError('INVALID_ARGUMENT', '"assistant_id" is required');
    const assistant = await assistantFor(api, c, assistantId);
    const payload = Object.fromEntries(
      Object.entries(input).filter(([key]) => RUN_FIELDS.includes(key)),
    ) as JsonObject;
    buildRunRequest(api, { assistant, owner: ownerOf(c), threadId }, payload); // checks the run fields now
    const now = api.now();
    const record: CronRecord = {
      cron_id: uuid7(),
      assistant_id: assistant.assistant_id,
      thread_id: threadId,
      schedule,
      payload,
      on_run_completed: field.oneOf(input, 'on_run_completed', ['delete', 'keep'] as const) ?? 'delete',
      end_time: field.string(input, 'end_time') ?? null,
      enabled: field.boolean(input, 'enabled') ?? true,
      next_run_date: nextRun(parseCron(schedule), now).toISOString(),
      metadata: field.object(input, 'metadata') ?? {},
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
      user_id: ownerOf(c),
      owner: ownerOf(c),
    };
    await records.putCron(record);
    return c.json(publicView(record));
  };

  app.post('/runs/crons', (c) => create(c, null));
  app.post('/threads/:id/runs/crons', (c) => create(c, c.req.param('id')));

  app.post('/runs/crons/search', async (c) => {
    requirePermission(c.get('user'), 'crons', 'read');
    const input = await jsonBody(c, api.maxBodyBytes);
    const found = await search(api, c, input);
    const limit = field.number(input, 'limit') ?? 10;
    const offset = field.number(input, 'offset') ?? 0;
    const select = field.strings(input, 'select');
    return c.json(found.slice(offset, offset + limit).map((record) => selected(publicView(record), select)));
  });

  app.post('/runs/crons/count', async (c) => {
    requirePermission(c.get('user'), 'crons', 'read');
    return c.json((await search(api, c, await jsonBody(c, api.maxBodyBytes))).length);
  });

  app.patch('/runs/crons/:id', async (c) => {
    requirePermission(c.get('user'), 'crons', 'write');
    const current = await cronFor(api, c, c.req.param('id'));
    const input = await jsonBody(c, api.maxBodyBytes);
    const schedule = field.string(input, 'schedule') ?? current.schedule;
    const payload = { ...current.payload };
    for (const key of RUN_FIELDS) if (input[key] !== undefined) payload[key] = input[key];
    const now = api.now();
    const record: CronRecord = {
      ...current,
      schedule,
      payload,
      on_run_completed:
        field.oneOf(input, 'on_run_completed', ['delete', 'keep'] as const) ?? current.on_run_completed,
      end_time: input.end_time === undefined ? current.end_time : (field.string(input, 'end_time') ?? null),
      enabled: field.boolean(input, 'enabled') ?? current.enabled,
      next_run_date:
        schedule === current.schedule
          ? current.next_run_date
          : nextRun(parseCron(schedule), now).toISOString(),
      updated_at: now.toISOString(),
    };
    await records.putCron(record);
    return c.json(publicView(record));
  });

  app.delete('/runs/crons/:id', async (c) => {
    requirePermission(c.get('user'), 'crons', 'write');
    const record = await cronFor(api, c, c.req.param('id'));
    await records.deleteCron(record.cron_id);
    return c.body(null, 204);
  });
}

async function cronFor(api: Api, c: C, id: string): Promise<CronRecord> {
  const record = await api.context.records.cron(id);
  if (!record || record.owner !== ownerOf(c)) throw notFound('cron', id);
  return record;
}

async function search(api: Api, c: C, input: JsonObject): Promise<CronRecord[]> {
  const assistantId = field.string(input, 'assistant_id');
  const threadId = field.string(input, 'thread_id');
  const enabled = field.boolean(input, 'enabled');
  const sortBy =
    field.oneOf(input, 'sort_by', [
      'cron_id',
      'assistant_id',
      'thread_id',
      'created_at',
      'updated_at',
      'next_run_date',
    ] as const) ?? 'created_at';
  const order = field.oneOf(input, 'sort_order', ['asc', 'desc'] as const) ?? 'desc';
  const owner = ownerOf(c);
  return (await api.context.records.crons())
    .filter((record) => record.owner === owner)
    .filter((record) => assistantId === undefined || record.assistant_id === assistantId)
    .filter((record) => threadId === undefined || record.thread_id === threadId)
    .filter((record) => enabled === undefined || record.enabled === enabled)
    .sort((a, b) => String(a[sortBy]).localeCompare(String(b[sortBy])) * (order === 'asc' ? 1 : -1));
}
