// What the route modules share: the server context, the run manager and the per-request caller.
import type { Context, Hono } from 'hono';
import { notFound, WeftServerError } from '../errors/server-error.js';
import type { WebhookSender } from '../hooks/webhooks.js';
import { GRAPH_NAMESPACE, uuid5 } from '../records/ids.js';
import type { AssistantRecord, ThreadRecord } from '../records/record-types.js';
import type { RunManager } from '../runs/run-manager.js';
import type { ServerContext } from '../runs/server-context.js';
import type { AuthUser } from './auth.js';

/** Hono's environment for the server's routes: the authenticated caller, if any. */
export type ApiEnv = { Variables: { user: AuthUser | undefined } };

/** The Hono app the routes are added to. */
export type ApiApp = Hono<ApiEnv>;

/** What every route module gets. */
export interface Api {
  readonly context: ServerContext;
  readonly runs: RunManager;
  readonly maxBodyBytes: number;
  /** Set when the server may send webhooks. */
  readonly webhooks: WebhookSender | undefined;
  /** The current time (the cron scheduler's clock). */
  readonly now: () => Date;
}

/** The owner of what this request creates, and whose records it may see (`null` without auth). */
export function ownerOf(c: Context<ApiEnv>): string | null {
  return c.get('user')?.identity ?? null;
}

/** The default assistant id of a graph (the reference's: a UUID v5 of the graph id). */
export function defaultAssistantId(graphId: string): string {
  return uuid5(graphId, GRAPH_NAMESPACE);
}

/**
 * The assistant `id` names (an assistant id, or a graph id for its default assistant) if the caller may
 * use it — their own, or the server's defaults (read only). Others' are not found.
 */
export async function assistantFor(
  api: Api,
  c: Context<ApiEnv>,
  id: string,
  access: 'read' | 'write' = 'read',
): Promise<AssistantRecord> {
  const resolved = api.context.graphs.has(id) ? defaultAssistantId(id) : id;
  const record = await api.context.records.assistant(resolved);
  const owner = ownerOf(c);
  if (!record || (record.owner !== owner && record.owner !== null)) throw notFound('assistant', id);
  if (access === 'write' && record.owner === null && owner !== null)
    throw new WeftServerError(
      'FORBIDDEN',
      `assistant "${id}" is one of the server's defaults and cannot be changed`,
    );
  return record;
}

/** The thread `id` if it is the caller's; others' are not found. */
export async function threadFor(api: Api, c: Context<ApiEnv>, id: string): Promise<ThreadRecord> {
  const record = await api.context.records.thread(id);
  if (!record || record.owner !== ownerOf(c)) throw notFound('thread', id);
  return record;
}
