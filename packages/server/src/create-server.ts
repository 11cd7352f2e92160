import type { Checkpointer, Store } from '@weft/compose';
import { SqliteCheckpointer, SqliteStore } from '@weft/store-sqlite';
import type { Hono } from 'hono';
import { A2aMount, type ServerA2aOptions } from './a2a/a2a-mount.js';
import { WeftServerError } from './errors/server-error.js';
import { type CronClock, CronScheduler } from './hooks/cron-scheduler.js';
import { type WebhookOptions, WebhookSender } from './hooks/webhooks.js';
import { type ApiEnv, defaultAssistantId } from './http/api-context.js';
import type { ServerAuth } from './http/auth.js';
import { buildApp } from './http/build-app.js';
import type { GuardOptions } from './http/request-guard.js';
import { Records } from './records/records.js';
import { EventLog } from './runs/event-log.js';
import { RunManager } from './runs/run-manager.js';
import { nowIso, type ServedGraph, type ServerContext } from './runs/server-context.js';

/**
 * Options of {@link createServer}: the graphs to serve and where their runs live.
 *
 * @example
 * ```ts
 * declare const agent: ServedGraph;
 * const options: ServerOptions = { graphs: { agent }, database: '.weft/server.db', limits: { concurrentRunsPerUser: 5 } };
 * ```
 */
export interface ServerOptions {
  /** The graphs, by graph id; each gets a default assistant (its id: the graph id, or a UUID v5 of it). */
  readonly graphs: Readonly<Record<string, ServedGraph>>;
  /**
   * The SQLite file for checkpoints, the store and the server's records (default `:memory:`). Ignored
   * when both `checkpointer` and `store` are given (e.g. `PostgresCheckpointer` and `PostgresStore`).
   */
  readonly database?: string;
  readonly checkpointer?: Checkpointer;
  /** The long-term store: the Store API's items, graphs' `ctx.store`, and the server's records. */
  readonly store?: Store;
  /** The auth hook; without it every caller is one anonymous user (keep the server on loopback then). */
  readonly auth?: ServerAuth;
  /** Host/Origin/CORS/body checks (`false` turns them off, e.g. behind a proxy that does them). */
  readonly guard?: GuardOptions | false;
  readonly limits?: {
    /** Runs a user may have pending or running at once (default 100); more are refused with 429. */
    readonly concurrentRunsPerUser?: number;
    /** Events kept per run for replay (default 10,000; older ones are dropped). */
    readonly eventsPerRun?: number;
    /** How long a run's events are kept for reconnecting clients (default one hour). */
    readonly eventRetentionMs?: number;
    /** How often a reader of a run executed by another process polls for events (default 250 ms). */
    readonly pollMs?: number;
  };
  /** How often due crons are checked, and the clock (tests move it); crons run on every server. */
  readonly crons?: CronClock;
  /** Completion webhooks (signed, retried); without this option a run's `webhook` is refused. */
  readonly webhooks?: WebhookOptions;
  /**
   * Every graph also served over the Agent2Agent protocol at `/a2a/<graph id>/` (on by default; `false`
   * turns it off): agent card, JSON-RPC and SSE, behind the same guard and auth hook, each caller's tasks
   * their own and kept in `store`.
   */
  readonly a2a?: ServerA2aOptions | boolean;
  /** Structured log lines (default: JSON lines on stderr for warnings and errors only). */
  readonly log?: (entry: {
    level: 'info' | 'warn' | 'error';
    message: string;
    [field: string]: unknown;
  }) => void;
}

/**
 * A server made by {@link createServer}: a fetch handler (mount it in any framework), its runs, and the
 * lifecycle calls.
 *
 * @example
 * ```ts
 * declare const server: WeftServer;
 * const response = await server.fetch(new Request('http://127.0.0.1/ok'));
 * ```
 */
export interface WeftServer {
  /** Answers one request (a standard fetch handler). */
  fetch(request: Request): Promise<Response>;
  /** The Hono app, to mount under another app. */
  readonly app: Hono<ApiEnv>;
  /** Runs executing in this process. */
  readonly activeRuns: number;
  /**
   * Continues the runs (and A2A tasks) a stopped server over the same stores left (done by `serve` at
   * start); resolves with how many.
   */
  recover(): Promise<number>;
  /**
   * Stops taking runs, lets running ones finish for up to `drainMs` (default 10 s), then hands the rest
   * back: pending again, they continue from their last checkpoint on the next server that picks them up
   * (`recover()` at its start, or a live server over the same store). Closes the stores it opened.
   */
  close(options?: { readonly drainMs?: number }): Promise<void>;
}

/**
 * Makes a LangGraph-API-compatible server for Weft graphs, as a fetch handler: assistants, threads, runs
 * (streamed, waited for, in the background), resumable streams, double texting, the Store, auth. The
 * `@langchain/langgraph-sdk` client talks to it unchanged.
 *
 * @throws WeftServerError `INVALID_ARGUMENT` for no graphs, a bad graph id or a bad limit.
 * @example
 * ```ts
 * const graph = new StateGraph(z.object({ topic: z.string(), joke: z.string().optional() }))
 *   .addNode('write', (s) => ({ joke: `Why did the ${s.topic} cross the road?` }))
 *   .addEdge(START, 'write').addEdge('write', END)
 *   .compile();
 * const server = await createServer({ graphs: { joker: graph } });
 * const response = await server.fetch(new Request('http://127.0.0.1/assistants/joker'));
 * console.log(((await response.json()) as { graph_id: string }).graph_id); // joker
 * await server.close();
 * ```
 */
export async function createServer(options: ServerOptions): Promise<WeftServer> {
  const graphs = new Map(Object.entries(options.graphs));
  if (graphs.size === 0)
    throw new WeftServerError('INVALID_ARGUMENT', 'createServer: "graphs" names no graph');
  for (const id of graphs.keys())
    if (!/^[A-Za-z0-9_-]+$/.test(id))
      throw new WeftServerError(
        'INVALID_ARGUMENT',
        `createServer: graph id "${id}" may use only letters, digits, "_" and "-"`,
      );
  const limits = {
    concurrentRunsPerUser: positive('concurrentRunsPerUser', options.limits?.concurrentRunsPerUser ?? 100),
    pollMs: positive('pollMs', options.limits?.pollMs ?? 250),
  };
  const owned = options.checkpointer && options.store ? undefined : (options.database ?? ':memory:');
  const checkpointer = options.checkpointer ?? new SqliteCheckpointer({ filename: owned ?? ':memory:' });
  const store = options.store ?? new SqliteStore({ filename: owned ?? ':memory:' });
  const records = new Records(store);
  const events = new EventLog(store, {
    ttlMs: positive('eventRetentionMs', options.limits?.eventRetentionMs ?? 3_600_000),
    maxPerRun: positive('eventsPerRun', options.limits?.eventsPerRun ?? 10_000),
  });
  const write = options.log ?? defaultLog;
  const context: ServerContext = {
    graphs,
    checkpointer,
    store,
    records,
    events,
    limits,
    log: (level, message, fields) => write({ level, message, ...fields }),
  };
  await createDefaultAssistants(context);
  const webhooks = options.webhooks && webhookSender(context, options.webhooks);
  const runs = new RunManager(context);
  let closing = false;
  const now = options.crons?.now ?? (() => new Date());
  const api = {
    context,
    runs,
    webhooks,
    now,
    maxBodyBytes: options.guard === false ? 10 * 1024 * 1024 : (options.guard?.maxBodyBytes ?? 1024 * 1024),
  };
  const crons = new CronScheduler(api, { ...options.crons, now });
  const guard = options.guard === false ? false : { ...options.guard, maxBodyBytes: api.maxBodyBytes };
  const a2a =
    options.a2a === false
      ? undefined
      : new A2aMount(context, options.a2a === true ? {} : (options.a2a ?? {}), {
          guard,
          auth: options.auth !== undefined,
        });
  // Expired documents (run events past their retention, cron firing claims) are invisible to reads at
  // once; this removes them from the store's files or tables.
  const sweeper = setInterval(() => void store.sweep().catch(() => undefined), 10 * 60_000);
  sweeper.unref();
  const app = buildApp(api, {
    guard: options.guard ?? {},
    auth: options.auth,
    a2a,
    ready: async () =>
      !closing &&
      (await store.get(['weft-server', 'assistants'], 'ready').then(
        () => true,
        () => false,
      )),
  });
  return {
    fetch: async (request) => app.fetch(request),
    app,
    get activeRuns() {
      return runs.activeCount;
    },
    recover: async () => (await runs.recover()) + ((await a2a?.recover()) ?? 0),
    close: async ({ drainMs = 10_000 } = {}) => {
      closing = true;
      clearInterval(sweeper);
      await crons.stop();
      await Promise.all([runs.close(drainMs), a2a?.close()]);
      webhooks?.close();
      if (owned !== undefined) {
        if (!options.checkpointer) await (checkpointer as SqliteCheckpointer).close?.();
        if (!options.store) await store.close?.();
      }
    },
  };
}

function webhookSender(context: ServerContext, options: WebhookOptions): WebhookSender {
  if (options.secret.length < 16)
    throw new WeftServerError(
      'INVALID_ARGUMENT',
      'createServer: webhooks.secret must be at least 16 characters',
    );
  const sender = new WebhookSender(context, options);
  context.onRunEnd = (run, error) => {
    void context.events.read(run.run_id, -1).then((events) => {
      const values = events.filter((event) => event.event === 'values').at(-1)?.data ?? null;
      sender.send(run, values, error);
    });
  };
  return sender;
}

function positive(name: string, value: number): number {
  if (!(Number.isFinite(value) && value > 0))
    throw new WeftServerError(
      'INVALID_ARGUMENT',
      `createServer: limits.${name} must be a positive number, got ${value}`,
    );
  return value;
}

function defaultLog(entry: { level: string; message: string }): void {
  if (entry.level !== 'info') process.stderr.write(`${JSON.stringify({ time: nowIso(), ...entry })}\n`);
}

async function createDefaultAssistants(context: ServerContext): Promise<void> {
  for (const graphId of context.graphs.keys()) {
    const id = defaultAssistantId(graphId);
    if (await context.records.assistant(id)) continue;
    const now = nowIso();
    await context.records.putAssistant({
      assistant_id: id,
      graph_id: graphId,
      config: {},
      context: {},
      metadata: { created_by: 'system' },
      name: graphId,
      description: null,
      version: 1,
      created_at: now,
      updated_at: now,
      owner: null,
    });
  }
}
