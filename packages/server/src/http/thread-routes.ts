// /threads: create, read, search, delete, and their state: read, update (a fork when given a
// checkpoint), history.
import type { JsonValue } from '@weft/compose';
import type { Context } from 'hono';
import { WeftServerError } from '../errors/server-error.js';
import { uuid7 } from '../records/ids.js';
import { type JsonObject, publicView, type ThreadRecord } from '../records/record-types.js';
import { graphOf, nowIso, type ServedGraph } from '../runs/server-context.js';
import { apiState, emptyState } from '../runs/thread-state.js';
import { type Api, type ApiApp, type ApiEnv, ownerOf, threadFor } from './api-context.js';
import { requirePermission } from './auth.js';
import { contains, field, jsonBody, selected } from './http-kit.js';

type C = Context<ApiEnv>;
/** Adds the thread and thread-state routes. */
export function threadRoutes(app: ApiApp, api: Api): void {
  const { records, checkpointer } = api.context;
  const body = (c: C) => jsonBody(c, api.maxBodyBytes);
  const read = (c: C) => requirePermission(c.get('user'), 'threads', 'read');
  const write = (c: C) => requirePermission(c.get('user'), 'threads', 'write');

  app.post('/threads', async (c) => {
    write(c);
    const input = await body(c);
    const id = field.string(input, 'thread_id') ?? uuid7();
    const ifExists = field.oneOf(input, 'if_exists', ['raise', 'do_nothing'] as const) ?? 'raise';
    const existing = await records.thread(id);
    if (existing) {
      if (ifExists === 'do_nothing' && existing.owner === ownerOf(c))
        return c.json(await threadView(api, existing));
      throw new WeftServerError('CONFLICT', `thread "${id}" already exists`);
    }
    const metadata = field.object(input, 'metadata') ?? {};
    const graphId = typeof metadata.graph_id === 'string' ? metadata.graph_id : null;
    if (graphId !== null) graphOf(api.context, graphId);
    const now = nowIso();
    const record: ThreadRecord = {
      thread_id: id,
      created_at: now,
      updated_at: now,
      state_updated_at: now,
      metadata: Object.fromEntries(Object.entries(metadata).filter(([, value]) => value !== null)),
      status: 'idle',
      config: {},
      graph_id: graphId,
      owner: ownerOf(c),
      error: null,
    };
    await records.putThread(record, { ifAbsent: true });
    const supersteps = input.supersteps;
    if (Array.isArray(supersteps) && supersteps.length > 0) {
      if (graphId === null)
        throw new WeftServerError('INVALID_ARGUMENT', '"supersteps" need "metadata.graph_id" (the graph)');
      await graphOf(api.context, graphId).bulkUpdateState(
        id,
        (supersteps as JsonObject[]).map((step) => ({
          updates: ((step.updates ?? []) as JsonObject[]).map((update) => ({
            values: (update.values ?? null) as never,
            ...(typeof update.as_node === 'string' ? { asNode: update.as_node } : {}),
          })),
        })),
      );
    }
    return c.json(await threadView(api, record));
  });

  app.post('/threads/search', async (c) => {
    read(c);
    const input = await body(c);
    const found = await searchThreads(api, ownerOf(c), input);
    const limit = field.number(input, 'limit') ?? 10;
    const offset = field.number(input, 'offset') ?? 0;
    const select = field.strings(input, 'select');
    const page = await Promise.all(
      found.slice(offset, offset + limit).map((record) => threadView(api, record)),
    );
    return c.json(page.map((view) => selected(view, select)));
  });

  app.post('/threads/count', async (c) => {
    read(c);
    return c.json((await searchThreads(api, ownerOf(c), await body(c))).length);
  });

  app.get('/threads/:id', async (c) => {
    read(c);
    return c.json(await threadView(api, await threadFor(api, c, c.req.param('id'))));
  });

  app.patch('/threads/:id', async (c) => {
    write(c);
    const record = await threadFor(api, c, c.req.param('id'));
    const metadata = field.object(await body(c), 'metadata') ?? {};
    const updated = { ...record, metadata: { ...record.metadata, ...metadata }, updated_at: nowIso() };
    await records.putThread(updated);
    return c.json(await threadView(api, updated));
  });

  app.delete('/threads/:id', async (c) => {
    write(c);
    const record = await threadFor(api, c, c.req.param('id'));
    const runs = await records.runs(record.thread_id);
    await api.runs.cancel(runs, 'interrupt');
    await api.runs.settled(runs.map((run) => run.run_id));
    for (const run of runs) {
      await records.deleteRun(run.run_id);
      await api.context.events.drop(run.run_id);
    }
    await checkpointer.deleteThread(record.thread_id);
    await records.deleteThread(record.thread_id);
    return c.body(null, 204);
  });

  app.get('/threads/:id/state', async (c) => {
    read(c);
    const record = await threadFor(api, c, c.req.param('id'));
    return c.json(await stateOf(api, record, undefined, c.req.query('subgraphs') === 'true'));
  });

  app.get('/threads/:id/state/:checkpoint', async (c) => {
    read(c);
    const record = await threadFor(api, c, c.req.param('id'));
    return c.json(await stateOf(api, record, c.req.param('checkpoint'), c.req.query('subgraphs') === 'true'));
  });

  app.post('/threads/:id/state/checkpoint', async (c) => {
    read(c);
    const record = await threadFor(api, c, c.req.param('id'));
    const input = await body(c);
    const checkpoint = field.object(input, 'checkpoint') ?? {};
    const id = typeof checkpoint.checkpoint_id === 'string' ? checkpoint.checkpoint_id : undefined;
    return c.json(await stateOf(api, record, id, field.boolean(input, 'subgraphs') ?? false));
  });

  app.post('/threads/:id/state', async (c) => {
    write(c);
    const record = await threadFor(api, c, c.req.param('id'));
    const input = await body(c);
    const graph = graphFor(api, record);
    const checkpoint = field.object(input, 'checkpoint');
    const checkpointId =
      field.string(input, 'checkpoint_id') ??
      (typeof checkpoint?.checkpoint_id === 'string' ? checkpoint.checkpoint_id : undefined) ??
      record.rollback_to;
    const asNode = field.string(input, 'as_node');
    const values = (input.values ?? null) as JsonValue;
    const id = await graph.updateState(record.thread_id, values as never, {
      ...(asNode === undefined ? {} : { asNode: asNode as never }),
      ...(checkpointId === undefined ? {} : { checkpointId }),
    });
    const { rollback_to: _dropped, ...rest } = record;
    const now = nowIso();
    await records.putThread({ ...rest, updated_at: now, state_updated_at: now });
    return c.json({
      checkpoint: { thread_id: record.thread_id, checkpoint_ns: '', checkpoint_id: id, checkpoint_map: null },
    });
  });

  app.post('/threads/:id/history', async (c) => {
    read(c);
    const record = await threadFor(api, c, c.req.param('id'));
    if (record.graph_id === null) return c.json([]);
    const input = await body(c);
    const before = field.object(input, 'before');
    const filter = field.object(input, 'metadata');
    const history = await graphFor(api, record).getStateHistory(record.thread_id, {
      limit: field.number(input, 'limit') ?? 10,
      ...(typeof before?.checkpoint_id === 'string' ? { before: before.checkpoint_id } : {}),
      ...(filter ? { filter } : {}),
    });
    return c.json(history.map((snapshot) => apiState(snapshot, record.thread_id)));
  });
}

function graphFor(api: Api, record: ThreadRecord): ServedGraph {
  if (record.graph_id === null)
    throw new WeftServerError(
      'INVALID_ARGUMENT',
      `thread "${record.thread_id}" has no graph yet: run it, or create it with metadata.graph_id`,
    );
  return graphOf(api.context, record.graph_id);
}

async function stateOf(
  api: Api,
  record: ThreadRecord,
  checkpointId: string | undefined,
  subgraphs: boolean,
): Promise<JsonValue> {
  if (record.graph_id === null || !api.context.graphs.has(record.graph_id))
    return emptyState(record.thread_id);
  const id = checkpointId ?? record.rollback_to;
  const state = await graphFor(api, record).getState(record.thread_id, {
    ...(id === undefined ? {} : { checkpointId: id }),
    subgraphs,
  });
  return state ? apiState(state, record.thread_id) : emptyState(record.thread_id);
}

/** A thread as answered: its record with its current values and pending interrupts (by task). */
export async function threadView(api: Api, record: ThreadRecord): Promise<JsonObject> {
  const state = (await stateOf(api, record, undefined, false)) as {
    values: JsonValue;
    tasks: Array<{ id: string; interrupts: JsonValue[] }>;
  };
  const interrupts = Object.fromEntries(
    state.tasks.filter((task) => task.interrupts.length > 0).map((task) => [task.id, task.interrupts]),
  );
  const { rollback_to: _hidden, graph_id: _graph, ...view } = publicView(record);
  return { ...view, values: state.values, interrupts } as unknown as JsonObject;
}

async function searchThreads(api: Api, owner: string | null, input: JsonObject): Promise<ThreadRecord[]> {
  const metadata = field.object(input, 'metadata');
  const ids = field.strings(input, 'ids');
  const status = field.string(input, 'status');
  const values = field.object(input, 'values');
  const sortBy =
    field.oneOf(input, 'sort_by', [
      'thread_id',
      'status',
      'created_at',
      'updated_at',
      'state_updated_at',
    ] as const) ?? 'created_at';
  const order = field.oneOf(input, 'sort_order', ['asc', 'desc'] as const) ?? 'desc';
  const found: ThreadRecord[] = [];
  for (const record of await api.context.records.threads()) {
    if (record.owner !== owner || (ids && !ids.includes(record.thread_id))) continue;
    if ((status !== undefined && record.status !== status) || !contains(record.metadata, metadata)) continue;
    if (values && !contains(((await threadView(api, record)) as { values: JsonValue }).values, values))
      continue;
    found.push(record);
  }
  return found.sort(
    (a, b) => String(a[sortBy]).localeCompare(String(b[sortBy])) * (order === 'asc' ? 1 : -1),
  );
}
