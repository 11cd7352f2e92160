import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { WorkerDeployment } from '../server/open-backend.ts';

/** What `weft dev` was asked to do. */
export interface DevCommand {
  readonly command: 'dev';
  /** The module exporting graphs and agents; undefined for the built-in demo. */
  readonly entry: string | undefined;
  readonly host: string;
  readonly port: number;
  /** More `Host` names to answer to (`--allow-host`, repeatable). */
  readonly allowedHosts: readonly string[];
  /**
   * The access token (read from `--token-file`, or `WEFT_TOKEN`); undefined: a random one per start.
   * Never a command-line value: arguments show in `ps` to every user of the machine.
   */
  readonly token: string | undefined;
  /** Cap on a request body in bytes (`--max-body <MB>`). */
  readonly maxBodyBytes: number;
  readonly database: string;
  readonly watch: boolean;
  /** The worker deployment to attach to (`--redis` and `--pg`); undefined runs graphs in-process. */
  readonly workers: WorkerDeployment | undefined;
  /** OTLP/HTTP traces endpoint to export every run's spans to (`--otlp`); undefined: no tracing. */
  readonly otlp: string | undefined;
}

/** The CLI's usage text. */
export const usage = `Usage: weft dev [entry] [options]
       weft eval <eval-set> --module <file> [--agent <name> | --graph <name>]   (weft eval --help)
       weft init [folder] [--packs <dir>]                                       (a new project)
       weft serve <entry> [options]     (the LangGraph API for the entry's graphs; weft serve --help)
       weft db <stats|prune|migrate|verify|export|import> [--db <file> | --pg <url>]   (weft db --help)
       weft replay <thread> --module <file> --graph <name> [--db <file> | --pg <url>]  (weft replay --help)

Serves graphs and agents in the Weft playground (a web app and a JSON + SSE API).
Without an entry, serves the built-in demo.

  entry               a TypeScript or JavaScript module exporting compiled graphs, ChatModelAgents
                      or defineApp({ graphs, agents })
  -p, --port <n>      port (default WEFT_PORT, else 4317; 0 picks a free one)
      --host <addr>   interface to bind (default 127.0.0.1)
                      Every start has an access token, printed in the link to open (like Jupyter);
                      opening the link trades it for a cookie of this port. On loopback the page
                      and its graph list answer without it; everything else needs it
      --token-file <path>
                      read the token from this file instead (or set WEFT_TOKEN); never pass a
                      token as an argument: arguments show in ps
      --allow-host <name>
                      answer to this Host name too (repeatable; loopback names always work)
      --max-body <MB> cap on a request body in megabytes (default 10)
      --db <file>     SQLite file for checkpoints and threads (default .weft/weft.db)
      --no-watch      do not reload when the entry's files change
      --redis <url>   attach to a worker deployment (with --pg): runs are submitted to its queue
      --pg <url>      PostgreSQL of the workers' checkpoints (state and history; with --redis)
      --queue <name>  the workers' queue (default weft-runs)
      --schema <name> PostgreSQL schema of the workers' checkpoints (default public)
      --otlp <url>    export every run's OpenTelemetry spans over OTLP/HTTP to this traces
                      endpoint (e.g. http://localhost:4318/v1/traces); prompts are not recorded
  -h, --help          show this help`;

/**
 * Parses `weft` arguments.
 *
 * @throws Error with a message naming the bad argument.
 * @example
 * ```ts
 * parseCommand(['dev', 'graphs.ts', '--port', '0']); // { command: 'dev', entry: 'graphs.ts', port: 0, … }
 * parseCommand(['dev', '--token-file', '.weft/token'], process.env); // token from the file, else WEFT_TOKEN, else random
 * ```
 */
export function parseCommand(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): DevCommand | 'help' {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      port: { type: 'string', short: 'p' },
      host: { type: 'string' },
      'token-file': { type: 'string' },
      'allow-host': { type: 'string', multiple: true },
      'max-body': { type: 'string' },
      db: { type: 'string' },
      'no-watch': { type: 'boolean' },
      redis: { type: 'string' },
      pg: { type: 'string' },
      queue: { type: 'string' },
      schema: { type: 'string' },
      otlp: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  const [command = 'dev', entry, extra] = positionals;
  if (command !== 'dev') throw new Error(`unknown command "${command}" (try: weft dev [entry])`);
  if (extra !== undefined) throw new Error(`unexpected argument "${extra}": weft dev takes one entry module`);
  const port = Number(values.port ?? env.WEFT_PORT ?? 4317);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    const given = values.port === undefined ? `WEFT_PORT "${env.WEFT_PORT}"` : `"${values.port}"`;
    throw new Error(`--port must be an integer from 0 to 65535, got ${given}`);
  }
  const maxBodyMb = Number(values['max-body'] ?? 10);
  if (!Number.isFinite(maxBodyMb) || maxBodyMb <= 0) {
    throw new Error(`--max-body must be a positive number of megabytes, got "${values['max-body']}"`);
  }
  const token = tokenOf(values['token-file'], env.WEFT_TOKEN);
  return {
    command: 'dev',
    workers: workersOf(values),
    entry,
    host: values.host ?? '127.0.0.1',
    port,
    allowedHosts: values['allow-host'] ?? [],
    token,
    maxBodyBytes: Math.floor(maxBodyMb * 1024 * 1024),
    database: values.db ?? '.weft/weft.db',
    watch: !values['no-watch'],
    otlp: otlpOf(values.otlp),
  };
}

/** The token from `--token-file` (its first line, trimmed), else `WEFT_TOKEN`; at least 16 characters. */
function tokenOf(file: string | undefined, env: string | undefined): string | undefined {
  let token = env;
  let from = 'WEFT_TOKEN';
  if (file !== undefined) {
    try {
      token = (readFileSync(file, 'utf8').split('\n')[0] ?? '').trim();
    } catch (error) {
      throw new Error(`--token-file ${file}: ${(error as Error).message}`);
    }
    from = `--token-file ${file}`;
  }
  if (token !== undefined && token.length < 16)
    throw new Error(`the access token from ${from} must be at least 16 characters, got ${token.length}`);
  return token;
}

function otlpOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (parsed?.protocol !== 'http:' && parsed?.protocol !== 'https:') {
    throw new Error(`--otlp must be an http(s) URL such as http://localhost:4318/v1/traces, got "${url}"`);
  }
  return url;
}

function workersOf(values: {
  readonly redis?: string | undefined;
  readonly pg?: string | undefined;
  readonly queue?: string | undefined;
  readonly schema?: string | undefined;
}): WorkerDeployment | undefined {
  const { redis, pg, queue, schema } = values;
  if (redis === undefined && pg === undefined) {
    if (queue !== undefined || schema !== undefined)
      throw new Error('--queue and --schema need --redis and --pg (attaching to workers)');
    return undefined;
  }
  if (redis === undefined || pg === undefined)
    throw new Error('attaching to workers takes both --redis <url> and --pg <url>');
  return { redis, pg, queue, schema };
}
