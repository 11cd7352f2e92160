// The OpenAPI document served at /openapi.json: every route with its method and purpose.
const routes: ReadonlyArray<readonly [method: string, path: string, summary: string, tag: string]> = [
  ['post', '/assistants', 'Create an assistant (a configured graph)', 'assistants'],
  ['post', '/assistants/search', 'Search assistants', 'assistants'],
  ['post', '/assistants/count', 'Count assistants', 'assistants'],
  ['get', '/assistants/{assistant_id}', 'Get an assistant', 'assistants'],
  ['patch', '/assistants/{assistant_id}', 'Update an assistant (a new version)', 'assistants'],
  ['delete', '/assistants/{assistant_id}', 'Delete an assistant', 'assistants'],
  ['post', '/assistants/{assistant_id}/versions', 'List versions', 'assistants'],
  ['post', '/assistants/{assistant_id}/latest', 'Make a version current', 'assistants'],
  ['get', '/assistants/{assistant_id}/graph', 'The graph drawn as nodes and edges', 'assistants'],
  ['get', '/assistants/{assistant_id}/schemas', 'Schemas', 'assistants'],
  ['get', '/assistants/{assistant_id}/subgraphs', 'Subgraphs', 'assistants'],
  ['post', '/threads', 'Create a thread', 'threads'],
  ['post', '/threads/search', 'Search threads', 'threads'],
  ['post', '/threads/count', 'Count threads', 'threads'],
  ['get', '/threads/{thread_id}', 'Get a thread', 'threads'],
  ['patch', '/threads/{thread_id}', 'Update thread metadata', 'threads'],
  ['delete', '/threads/{thread_id}', 'Delete a thread, its runs and checkpoints', 'threads'],
  ['get', '/threads/{thread_id}/state', 'Thread state', 'threads'],
  ['get', '/threads/{thread_id}/state/{checkpoint_id}', 'Thread state at a checkpoint', 'threads'],
  ['post', '/threads/{thread_id}/state/checkpoint', 'Thread state at a checkpoint', 'threads'],
  ['post', '/threads/{thread_id}/state', 'Update thread state (a fork at a checkpoint)', 'threads'],
  ['post', '/threads/{thread_id}/history', 'Thread history', 'threads'],
  ['post', '/threads/{thread_id}/runs', 'Create a background run', 'runs'],
  ['post', '/threads/{thread_id}/runs/stream', 'Create a run and stream it (SSE)', 'runs'],
  ['post', '/threads/{thread_id}/runs/wait', 'Create a run and wait for its output', 'runs'],
  ['get', '/threads/{thread_id}/runs', 'List runs', 'runs'],
  ['get', '/threads/{thread_id}/runs/{run_id}', 'Get a run', 'runs'],
  ['delete', '/threads/{thread_id}/runs/{run_id}', 'Delete a run', 'runs'],
  ['get', '/threads/{thread_id}/runs/{run_id}/join', 'Wait for a run', 'runs'],
  ['get', '/threads/{thread_id}/runs/{run_id}/stream', 'Join a run stream (Last-Event-ID resumes)', 'runs'],
  ['post', '/threads/{thread_id}/runs/{run_id}/cancel', 'Cancel a run (interrupt or rollback)', 'runs'],
  ['post', '/runs', 'Create a stateless background run', 'runs'],
  ['post', '/runs/stream', 'Stream a stateless run', 'runs'],
  ['post', '/runs/wait', 'Wait for a stateless run', 'runs'],
  ['post', '/runs/batch', 'Create stateless runs', 'runs'],
  ['get', '/runs/{run_id}/stream', 'Join a stateless run stream', 'runs'],
  ['put', '/store/items', 'Put an item', 'store'],
  ['get', '/store/items', 'Get an item', 'store'],
  ['delete', '/store/items', 'Delete an item', 'store'],
  ['post', '/store/items/search', 'Search items', 'store'],
  ['post', '/store/namespaces', 'List namespaces', 'store'],
  ['post', '/runs/crons', 'Create a cron (a new thread per run)', 'crons'],
  ['post', '/threads/{thread_id}/runs/crons', 'Create a cron on a thread', 'crons'],
  ['post', '/runs/crons/search', 'Search crons', 'crons'],
  ['post', '/runs/crons/count', 'Count crons', 'crons'],
  ['patch', '/runs/crons/{cron_id}', 'Update a cron', 'crons'],
  ['delete', '/runs/crons/{cron_id}', 'Delete a cron', 'crons'],
  ['get', '/ok', 'Liveness', 'system'],
  ['get', '/health', 'Liveness', 'system'],
  ['get', '/ready', 'Readiness (stores reachable, not shutting down)', 'system'],
  ['get', '/info', 'Server information', 'system'],
];

/** The server's OpenAPI 3.1 document. */
export function openApiDocument(version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [method, path, summary, tag] of routes) {
    const params = [...path.matchAll(/\{(\w+)\}/g)].map((match) => ({
      name: match[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    paths[path] = {
      ...paths[path],
      [method]: {
        summary,
        tags: [tag],
        ...(params.length > 0 ? { parameters: params } : {}),
        ...(method === 'get' || method === 'delete'
          ? {}
          : { requestBody: { content: { 'application/json': { schema: { type: 'object' } } } } }),
        responses: { 200: { description: 'OK' }, 404: { description: 'Not found (or not yours)' } },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Weft server (LangGraph API compatible)', version },
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
      },
    },
    paths,
  };
}
