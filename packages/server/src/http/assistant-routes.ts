// /assistants: versioned configurations of the served graphs.

import type { Context } from 'hono';
import { WeftServerError } from '../errors/server-error.js';
import { uuid7 } from '../records/ids.js';
import {
  type AssistantRecord,
  type JsonObject,
  publicView,
  type RunConfig,
} from '../records/record-types.js';
import { graphOf, nowIso } from '../runs/server-context.js';
import { type Api, type ApiApp, type ApiEnv, assistantFor, ownerOf } from './api-context.js';
import { requirePermission } from './auth.js';
import { contains, field, jsonBody, selected } from './http-kit.js';

type C = Context<ApiEnv>;
/** Adds the assistant routes. */
export function assistantRoutes(app: ApiApp, api: Api): void {
  const { records } = api.context;
  const body = (c: C) => jsonBody(c, api.maxBodyBytes);

  app.post('/assistants', async (c) => {
    requirePermission(c.get('user'), 'assistants', 'write');
    const input = await body(c);
    const graphId = field.string(input, 'graph_id');
    if (graphId === undefined) throw new WeftServerError('INVALID_ARGUMENT', '"graph_id" is required');
    graphOf(api.context, graphId);
    const id = field.string(input, 'assistant_id') ?? uuid7();
    const ifExists = field.oneOf(input, 'if_exists', ['raise', 'do_nothing'] as const) ?? 'raise';
    const existing = await records.assistant(id);
    if (existing) {
      if (ifExists === 'do_nothing' && existing.owner === ownerOf(c)) return c.json(publicView(existing));
      throw new WeftServerError('CONFLICT', `assistant "${id}" already exists`);
    }
    const now = nowIso();
    const record: AssistantRecord = {
      assistant_id: id,
      graph_id: graphId,
      config: (field.object(input, 'config') ?? {}) as RunConfig,
      context: field.object(input, 'context') ?? {},
      metadata: field.object(input, 'metadata') ?? {},
      name: field.string(input, 'name') ?? 'Untitled',
      description: field.string(input, 'description') ?? null,
      version: 1,
      created_at: now,
      updated_at: now,
      owner: ownerOf(c),
    };
    await records.putAssistant(record);
    return c.json(publicView(record));
  });

  app.post('/assistants/search', async (c) => {
    requirePermission(c.get('user'), 'assistants', 'read');
    const input = await body(c);
    const found = await search(api, ownerOf(c), input);
    const limit = field.number(input, 'limit') ?? 10;
    const offset = field.number(input, 'offset') ?? 0;
    const page = found.slice(offset, offset + limit);
    const select = field.strings(input, 'select');
    if (offset + limit < found.length) c.header('X-Pagination-Next', String(offset + limit));
    return c.json(page.map((record) => selected(publicView(record), select)));
  });

  app.post('/assistants/count', async (c) => {
    requirePermission(c.get('user'), 'assistants', 'read');
    return c.json((await search(api, ownerOf(c), await body(c))).length);
  });

  app.get('/assistants/:id', async (c) => {
    requirePermission(c.get('user'), 'assistants', 'read');
    return c.json(publicView(await assistantFor(api, c, c.req.param('id'))));
  });

  app.patch('/assistants/:id', async (c) => {
    requirePermission(c.get('user'), 'assistants', 'write');
    const current = await assistantFor(api, c, c.req.param('id'), 'write');
    const input = await body(c);
    const graphId = field.string(input, 'graph_id') ?? current.graph_id;
    graphOf(api.context, graphId);
    const latest = (await records.assistantVersions(current.assistant_id))[0]?.version ?? current.version;
    const now = nowIso();
    const record: AssistantRecord = {
      ...current,
      graph_id: graphId,
      config: (field.object(input, 'config') as RunConfig | undefined) ?? current.config,
      context: field.object(input, 'context') ?? current.context,
      metadata: { ...current.metadata, ...field.object(input, 'metadata') },
      name: field.string(input, 'name') ?? current.name,
      description: field.string(input, 'description') ?? current.description,
      version: latest + 1,
      created_at: now,
      updated_at: now,
    };
    await records.putAssistant(record);
    return c.json(publicView(record));
  });

  app.delete('/assistants/:id', async (c) => {
    requirePermission(c.get('user'), 'assistants', 'write');
    const record = await assistantFor(api, c, c.req.param('id'), 'write');
    await records.deleteAssistant(record.assistant_id);
    return c.body(null, 204);
  });

  app.post('/assistants/:id/versions', async (c) => {
    requirePermission(c.get('user'), 'assistants', 'read');
    const record = await assistantFor(api, c, c.req.param('id'));
    const input = await body(c);
    const metadata = field.object(input, 'metadata');
    const limit = field.number(input, 'limit') ?? 10;
    const offset = field.number(input, 'offset') ?? 0;
    const versions = (await records.assistantVersions(record.assistant_id)).filter((version) =>
      contains(version.metadata, metadata),
    );
    return c.json(versions.slice(offset, offset + limit).map(publicView));
  });

  app.post('/assistants/:id/latest', async (c) => {
    requirePermission(c.get('user'), 'assistants', 'write');
    const record = await assistantFor(api, c, c.req.param('id'), 'write');
    const version = field.number(await body(c), 'version');
    const chosen = (await records.assistantVersions(record.assistant_id)).find(
      (each) => each.version === version,
    );
    if (!chosen)
      throw new WeftServerError(
        'NOT_FOUND',
        `assistant "${record.assistant_id}" has no version ${String(version)}`,
      );
    const current = { ...chosen, updated_at: nowIso() };
    await records.setAssistantCurrent(current);
    return c.json(publicView(current));
  });

  app.get('/assistants/:id/graph', async (c) => {
    requirePermission(c.get('user'), 'assistants', 'read');
    const record = await assistantFor(api, c, c.req.param('id'));
    const drawing = graphOf(api.context, record.graph_id).toJSON();
    return c.json({
      nodes: drawing.nodes.map((node) => ({ id: node.id, name: node.id, type: node.kind, data: node.id })),
      edges: drawing.edges.map((edge) => ({
        source: edge.source,
        target: edge.target,
        conditional: edge.kind === 'conditional',
      })),
    });
  });

  app.get('/assistants/:id/schemas', async (c) => {
    requirePermission(c.get('user'), 'assistants', 'read');
    const record = await assistantFor(api, c, c.req.param('id'));
    return c.json({
      graph_id: record.graph_id,
      input_schema: null,
      output_schema: null,
      state_schema: null,
      config_schema: null,
      context_schema: null,
    });
  });

  app.get('/assistants/:id/subgraphs', async (c) => {
    requirePermission(c.get('user'), 'assistants', 'read');
    await assistantFor(api, c, c.req.param('id'));
    return c.json({});
  });
}

async function search(api: Api, owner: string | null, input: JsonObject): Promise<AssistantRecord[]> {
  const graphId = field.string(input, 'graph_id');
  const name = field.string(input, 'name');
  const metadata = field.object(input, 'metadata');
  const sortBy =
    field.oneOf(input, 'sort_by', [
      'assistant_id',
      'graph_id',
      'name',
      'created_at',
      'updated_at',
    ] as const) ?? 'created_at';
  const order = field.oneOf(input, 'sort_order', ['asc', 'desc'] as const) ?? 'desc';
  const all = await api.context.records.assistants();
  return all
    .filter((record) => record.owner === owner || record.owner === null)
    .filter(
      (record) =>
        (graphId === undefined || record.graph_id === graphId) &&
        (name === undefined || record.name.includes(name)),
    )
    .filter((record) => contains(record.metadata, metadata))
    .sort((a, b) => String(a[sortBy]).localeCompare(String(b[sortBy])) * (order === 'asc' ? 1 : -1));
}
