// `weft serve <entry>` (through the playground's bin: `npx @weft/playground serve ./graphs.ts`): loads
// a module's compiled graphs (and its `auth` export) and serves them over the LangGraph API, on SQLite by
// default or PostgreSQL with --postgres, until SIGINT/SIGTERM (then a graceful shutdown).
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { Checkpointer, Store } from '@weft/compose';
import { WeftServerError } from '../errors/server-error.js';
import type { ServerAuth } from '../http/auth.js';
import type { ServedGraph } from '../runs/server-context.js';
import { type ServedServer, serve } from '../serve.js';

/** The CLI's usage text. */
export const serveUsage = `Usage: weft serve <entry> [options]

Serves the compiled graphs an entry module exports over the LangGraph API (the Agent Protocol the
@langchain/langgraph-sdk client speaks). Each export that is a compiled graph is served under its export
name; an export named "auth" (a ServerAuth) is the auth hook.

  -p, --port <n>        port (default WEFT_PORT, else 2024; 0 picks a free one)
      --host <addr>     interface to bind (default 127.0.0.1; beyond loopback the entry must export auth)
      --db <file>       SQLite file for checkpoints, the store and the server's records (default .weft/server.db)
      --postgres <url>  PostgreSQL instead of SQLite (also WEFT_PG_URL); many servers may share it
      --schema <name>   PostgreSQL schema (default public)
      --allow-host <h>  answer to this Host name too (repeatable)
      --allow-origin <o> allow browser calls (CORS) from this origin (repeatable)
      --max-body <MB>   cap on a request body in megabytes (default 1)
      --recover         with --postgres: continue the runs stopped servers left (only when no other
                        server is running on the database; SQLite always does)
      --no-a2a          do not serve the graphs over A2A (served by default at /a2a/<graph id>/)
      --a2a-push        let A2A clients register push-notification webhooks (public http(s) URLs)
      --drain <s>       seconds running runs get to finish at shutdown before they are handed back (default 10)
  -h, --help            show this help`;

/** Where the CLI writes. */
export interface CliIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/**
 * Runs `weft serve` with `argv` (the arguments after `serve`); resolves with the running server, or
 * `undefined` after printing the help.
 *
 * @throws WeftServerError `INVALID_ARGUMENT` naming the bad argument, or an entry without graphs.
 * @example
 * ```ts
 * const running = await runServeCli(['graphs.ts', '--port', '0', '--db', ':memory:'], {
 *   out: console.log,
 *   err: console.error,
 *   env: process.env,
 * });
 * await running?.close();
 * ```
 */
export async function runServeCli(argv: readonly string[], io: CliIo): Promise<ServedServer | undefined> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      port: { type: 'string', short: 'p' },
      host: { type: 'string' },
      db: { type: 'string' },
      postgres: { type: 'string' },
      schema: { type: 'string' },
      'allow-host': { type: 'string', multiple: true },
      'allow-origin': { type: 'string', multiple: true },
      'max-body': { type: 'string' },
      drain: { type: 'string' },
      recover: { type: 'boolean' },
      'no-a2a': { type: 'boolean' },
      'a2a-push': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    io.out(serveUsage);
    return undefined;
  }
  const [entry, extra] = positionals;
  if (entry === undefined)
    throw new WeftServerError(
      'INVALID_ARGUMENT',
      'weft serve needs an entry module (weft serve ./graphs.ts)',
    );
  if (extra !== undefined)
    throw new WeftServerError(
      'INVALID_ARGUMENT',
      `unexpected argument "${extra}": weft serve takes one entry module`,
    );
  const port = integer('--port', values.port ?? io.env.WEFT_PORT ?? '2024', 0, 65_535);
  const maxBodyBytes = Math.floor(positiveNumber('--max-body', values['max-body'] ?? '1') * 1024 * 1024);
  const drainMs = positiveNumber('--drain', values.drain ?? '10') * 1000;
  const { graphs, auth } = await loadEntry(entry);
  const postgres = values.postgres ?? io.env.WEFT_PG_URL;
  const stores = postgres === undefined ? undefined : await postgresStores(postgres, values.schema);
  const running = await serve({
    graphs,
    port,
    ...(values.host === undefined ? {} : { host: values.host }),
    ...(auth ? { auth } : {}),
    ...(stores ?? { database: values.db ?? '.weft/server.db' }),
    ...(values.recover ? { recover: true } : {}),
    a2a: values['no-a2a'] ? false : { pushNotifications: values['a2a-push'] === true },
    guard: {
      maxBodyBytes,
      ...(values['allow-host'] ? { allowedHosts: values['allow-host'] } : {}),
      ...(values['allow-origin'] ? { allowedOrigins: values['allow-origin'] } : {}),
    },
    log: (line) => io.err(JSON.stringify({ time: new Date().toISOString(), ...line })),
  });
  const a2a = values['no-a2a'] ? '' : `; A2A at ${running.url}/a2a/<graph>/`;
  io.out(
    `weft serve: ${Object.keys(graphs).join(', ')} on ${running.url}${stores ? ' (PostgreSQL)' : ''}${a2a}`,
  );
  return {
    ...running,
    close: async (options) => {
      await running.close({ drainMs, ...options });
      await stores?.close();
    },
  };
}

/** The compiled graphs (by export name) and the `auth` hook an entry module exports. */
export async function loadEntry(
  file: string,
): Promise<{ graphs: Record<string, ServedGraph>; auth: ServerAuth | undefined }> {
  const module = (await import(pathToFileURL(resolve(file)).href)) as Record<string, unknown>;
  const graphs: Record<string, ServedGraph> = {};
  for (const [name, value] of Object.entries(module))
    if (isCompiledGraph(value)) graphs[name === 'default' ? 'graph' : name] = value;
  if (Object.keys(graphs).length === 0)
    throw new WeftServerError(
      'INVALID_ARGUMENT',
      `${file} exports no compiled graph (export const agent = graph.compile())`,
    );
  const auth = module.auth as ServerAuth | undefined;
  if (auth !== undefined && typeof auth.authenticate !== 'function')
    throw new WeftServerError(
      'INVALID_ARGUMENT',
      `${file}: the "auth" export must have an authenticate(request) function`,
    );
  return { graphs, auth };
}

function isCompiledGraph(value: unknown): value is ServedGraph {
  const graph = value as Partial<Record<'withOptions' | 'stream' | 'getState' | 'toJSON', unknown>> | null;
  return (
    typeof graph === 'object' &&
    graph !== null &&
    typeof graph.withOptions === 'function' &&
    typeof graph.stream === 'function' &&
    typeof graph.getState === 'function' &&
    typeof graph.toJSON === 'function'
  );
}

async function postgresStores(connectionString: string, schema: string | undefined) {
  const { PostgresCheckpointer, PostgresStore } = await import('@weft/store-postgres');
  const options = { connectionString, ...(schema === undefined ? {} : { schema }) };
  const checkpointer = new PostgresCheckpointer(options);
  const store = new PostgresStore(options);
  await checkpointer.setup();
  await store.setup();
  return {
    checkpointer: checkpointer as Checkpointer,
    store: store as Store,
    close: async () => {
      await checkpointer.close();
      await store.close();
    },
  };
}

function integer(flag: string, text: string, low: number, high: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < low || value > high)
    throw new WeftServerError(
      'INVALID_ARGUMENT',
      `${flag} must be an integer from ${low} to ${high}, got "${text}"`,
    );
  return value;
}

function positiveNumber(flag: string, text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0)
    throw new WeftServerError('INVALID_ARGUMENT', `${flag} must be a positive number, got "${text}"`);
  return value;
}
