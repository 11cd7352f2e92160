import type { Checkpointer } from '@weft/compose';
import type { Context } from 'hono';
import type { ZodType } from 'zod';
import type { ThreadInfo } from '../shared/wire.ts';
import { HttpError } from './http-error.ts';
import type { Registry } from './registry.ts';
import type { RegistryEntry } from './registry-entry.ts';
import type { RunBackend } from './run-backend.ts';
import type { ThreadStore } from './thread-store.ts';

/** What every route reads: the current registry (it changes on reload), threads, runs and checkpoints. */
export interface ServerContext {
  registry(): Registry;
  readonly threads: ThreadStore;
  /** The in-process run manager, or the worker client backend (`weft dev --redis … --pg …`). */
  readonly runs: RunBackend;
  readonly checkpointer: Checkpointer;
}

/**
 * Reads and validates a JSON body; an empty body counts as `{}`.
 *
 * @throws HttpError 400 `INVALID_JSON` for unparsable JSON, `INVALID_BODY` naming each wrong field.
 * @example
 * ```ts
 * const body = await readBody(c, z.object({ graphId: z.string() }));
 * ```
 */
export async function readBody<T>(c: Context, schema: ZodType<T>): Promise<T> {
  const text = await c.req.text();
  let raw: unknown = {};
  if (text.trim() !== '') {
    try {
      raw = JSON.parse(text);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      throw new HttpError(400, 'INVALID_JSON', `the request body is not valid JSON: ${detail}`);
    }
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw HttpError.fromZod(parsed.error, '', 'INVALID_BODY');
  return parsed.data;
}

/**
 * A thread by id, with `running` when it has a live run.
 *
 * @throws HttpError 404 when there is no such thread.
 * @example
 * ```ts
 * const thread = threadOr404(ctx, c.req.param('threadId'));
 * ```
 */
export function threadOr404(ctx: ServerContext, threadId: string): ThreadInfo {
  const thread = ctx.threads.get(threadId);
  if (!thread) throw new HttpError(404, 'NOT_FOUND', `no thread "${threadId}"`);
  return ctx.runs.active(threadId) ? { ...thread, status: 'running' } : thread;
}

/**
 * The registry entry of a graph id.
 *
 * @throws HttpError 404 when the app has no such graph or agent (e.g. after a reload removed it).
 * @example
 * ```ts
 * const entry = entryOr404(ctx, thread.graphId);
 * ```
 */
export function entryOr404(ctx: ServerContext, graphId: string): RegistryEntry {
  const entry = ctx.registry().entries.get(graphId);
  if (!entry) {
    const known = [...ctx.registry().entries.keys()].join(', ') || 'none';
    throw new HttpError(404, 'NOT_FOUND', `no graph or agent "${graphId}" (known: ${known})`);
  }
  return entry;
}

/**
 * Asserts that an entry's nodes can take static breakpoints (every graph and agent keeps checkpoints,
 * but DAG mode has no superstep to stop between, ADR 023).
 *
 * @throws HttpError 400 `NO_BREAKPOINTS` for DAG-mode graphs.
 * @example
 * ```ts
 * requireBreakpoints(entry);
 * ```
 */
export function requireBreakpoints(entry: RegistryEntry): void {
  if (!entry.info.breakpoints) {
    throw new HttpError(
      400,
      'NO_BREAKPOINTS',
      `graph "${entry.info.id}" runs in DAG mode, which has no static breakpoints (call interrupt() in a node instead)`,
    );
  }
}
