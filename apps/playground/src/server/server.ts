import { existsSync, mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import type { WeftTracing } from '@weft/otel';
import { SqliteSessionService, SqliteStore } from '@weft/store-sqlite';
import Database from 'better-sqlite3';
import { A2aMount } from './a2a-mount.ts';
import { createApp } from './app.ts';
import type { PlaygroundApp } from './define-app.ts';
import { EvalRuns } from './eval/eval-runs.ts';
import { newAccessToken } from './guard/access-token.ts';
import { isLoopback } from './guard/host-names.ts';
import { loopbackShell } from './guard/request-guard.ts';
import { RecallLog } from './memory/recall-log.ts';
import { openBackend, type WorkerDeployment } from './open-backend.ts';
import { createRegistry, type Registry } from './registry.ts';
import type { ServerContext } from './server-context.ts';
import { SessionBranches } from './session-branches.ts';
import { ThreadStore } from './thread-store.ts';

/** Options of {@link startServer}. */
export interface StartServerOptions {
  /** What to serve (swap it later with `reload`). */
  readonly app: PlaygroundApp;
  /**
   * Interface to bind (default `127.0.0.1`: the playground has no login). Bound to anything but
   * loopback, every request must present an access token (see `token`).
   */
  readonly host?: string;
  /** More `Host` names to answer to besides the loopback names and `host` (e.g. the machine's LAN name). */
  readonly allowedHosts?: readonly string[] | undefined;
  /**
   * The access token requests must present (`Authorization: Bearer`, or the per-port cookie set by
   * opening `openUrl`). Default: a fresh random one on every start, on loopback too (like Jupyter); on
   * loopback the page shell and `GET /api/graphs` answer without it. `false`: no token, allowed only on
   * loopback.
   */
  readonly token?: string | false | undefined;
  /** Cap on a request body in bytes (default 10 MB); larger bodies get a 413 without being read. */
  readonly maxBodyBytes?: number | undefined;
  /** Port (default 4317; 0 picks a free one). */
  readonly port?: number;
  /** SQLite file for checkpoints and threads (default `.weft/weft.db`; `:memory:` keeps nothing). */
  readonly database?: string;
  /** Folder of the built web app (default: this package's `dist/web`). */
  readonly webDir?: string;
  /**
   * Attach to a worker deployment: runs are submitted to its queue and followed from Redis, state and
   * history come from its PostgreSQL checkpoints. Absent: runs execute in this process.
   */
  readonly workers?: WorkerDeployment | undefined;
  /**
   * Traces every run (`weft dev --otlp`): in-process runs get its callbacks, runs submitted to workers
   * carry its trace context.
   */
  readonly tracing?: WeftTracing | undefined;
}

/** A running playground server. */
export interface PlaygroundServer {
  /** `http://host:port`. */
  readonly url: string;
  /** The link to open in a browser: `url`, with `?token=…` when the server requires a token. */
  readonly openUrl: string;
  /** The access token requests must present, when the server requires one. */
  readonly token: string | undefined;
  readonly port: number;
  /** The graphs and agents served now. */
  registry(): Registry;
  /**
   * Serves another app (after the entry module changed); live runs go on with the graphs they started
   * with. `problems` (e.g. why the new module failed to load) are listed with the graphs.
   */
  reload(app: PlaygroundApp, problems?: readonly string[]): Registry;
  /** Stops live runs (or stops following worker runs), closes the server, the database and the client. */
  close(): Promise<void>;
}

/** The default folder of the built web app. */
export const defaultWebDir = webDirOf(fileURLToPath(import.meta.url));

/** `dist/web` of this package: from the sources (src/server) or from the published bundle (dist/). */
function webDirOf(file: string): string {
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'bin', 'weft.mjs')))
      return join(dir, 'dist', 'web');
  }
  return join(dirname(file), '..', '..', 'dist', 'web');
}

/**
 * Starts the playground: opens the SQLite file, registers the app's graphs and agents, and serves the
 * API and the web app. With `workers`, runs go to a worker deployment instead of this process.
 *
 * @throws Error when the port is taken or the database cannot be opened.
 * @example
 * ```ts
 * const server = await startServer({ app: createDemoApp(), port: 0, database: ':memory:' });
 * console.log(server.url);
 * await server.close();
 * ```
 */
export async function startServer(options: StartServerOptions): Promise<PlaygroundServer> {
  const filename = options.database ?? '.weft/weft.db';
  if (filename !== ':memory:') mkdirSync(dirname(filename), { recursive: true });
  const db = new Database(filename);
  const threads = new ThreadStore(db);
  const backend = await openBackend(db, threads, options.workers, options.tracing).catch((error: unknown) => {
    db.close();
    throw error;
  });
  const { checkpointer, runs } = backend;
  const recalls = new RecallLog();
  const sessions = { service: new SqliteSessionService({ database: db }), branches: new SessionBranches(db) };
  const registryOptions = { mode: backend.mode, recalls, sessions };
  let registry = createRegistry(options.app, checkpointer, registryOptions);
  let current = options.app;
  const evalRuns = new EvalRuns(db);
  const ctx: ServerContext = { registry: () => registry, threads, runs, checkpointer };
  const host = options.host ?? '127.0.0.1';
  if (options.token === false && !isLoopback(host))
    throw new Error(
      `the playground bound to ${host} needs an access token; token: false is for loopback only`,
    );
  const token = options.token === false ? undefined : (options.token ?? newAccessToken());
  // Agents and graphs over A2A (in-process runs only: attached to workers, runs are theirs).
  const a2a =
    backend.mode === 'worker'
      ? undefined
      : new A2aMount({
          checkpointer,
          sessionService: sessions.service,
          taskStore: new SqliteStore({ database: db }),
          token,
        });
  a2a?.serve(options.app);
  const app = createApp(ctx, {
    webDir: options.webDir ?? defaultWebDir,
    guard: {
      host,
      allowedHosts: options.allowedHosts,
      token,
      openWithoutToken: isLoopback(host) ? loopbackShell : undefined,
    },
    maxBodyBytes: options.maxBodyBytes,
    evals: { app: () => current, evalRuns },
    memory: { app: () => current, recalls },
    a2a,
  });
  const { server, port } = await listen(app.fetch, host, options.port ?? 4317).catch(async (error) => {
    await backend.close();
    db.close();
    throw error;
  });
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  await a2a?.recover();
  return {
    url,
    openUrl: token === undefined ? url : `${url}/?token=${token}`,
    token,
    port,
    registry: () => registry,
    reload: (next, problems = []) => {
      const created = createRegistry(next, checkpointer, registryOptions);
      current = next;
      a2a?.serve(next);
      registry = { ...created, problems: [...problems, ...created.problems] };
      return registry;
    },
    close: async () => {
      evalRuns.close();
      await a2a?.close();
      await runs.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await backend.close();
      db.close();
    },
  };
}

function listen(
  fetch: Parameters<typeof serve>[0]['fetch'],
  hostname: string,
  port: number,
): Promise<{ server: Server; port: number }> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, hostname, port }) as Server;
    server.once('error', reject);
    server.once('listening', () => {
      server.off('error', reject);
      resolve({ server, port: (server.address() as AddressInfo).port });
    });
  });
}
