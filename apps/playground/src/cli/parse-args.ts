import { parseArgs } from 'node:util';
import type { WorkerDeployment } from '../server/open-backend.ts';

/** What `weft dev` was asked to do. */
export interface DevCommand {
  readonly command: 'dev';
  /** The module exporting graphs and agents; undefined for the built-in demo. */
  readonly entry: string | undefined;
  readonly host: string;
  readonly port: number;
  readonly database: string;
  readonly watch: boolean;
  /** The worker deployment to attach to (`--redis` and `--pg`); undefined runs graphs in-process. */
  readonly workers: WorkerDeployment | undefined;
}

/** The CLI's usage text. */
export const usage = `Usage: weft dev [entry] [options]

Serves graphs and agents in the Weft playground (a web app and a JSON + SSE API).
Without an entry, serves the built-in demo.

  entry               a TypeScript or JavaScript module exporting compiled graphs, ChatModelAgents
                      or defineApp({ graphs, agents })
  -p, --port <n>      port (default 4317; 0 picks a free one)
      --host <addr>   interface to bind (default 127.0.0.1; the playground has no login)
      --db <file>     SQLite file for checkpoints and threads (default .weft/weft.db)
      --no-watch      do not reload when the entry's files change
      --redis <url>   attach to a worker deployment (with --pg): runs are submitted to its queue
      --pg <url>      PostgreSQL of the workers' checkpoints (state and history; with --redis)
      --queue <name>  the workers' queue (default weft-runs)
      --schema <name> PostgreSQL schema of the workers' checkpoints (default public)
  -h, --help          show this help`;

/**
 * Parses `weft` arguments.
 *
 * @throws Error with a message naming the bad argument.
 * @example
 * ```ts
 * parseCommand(['dev', 'graphs.ts', '--port', '0']); // { command: 'dev', entry: 'graphs.ts', port: 0, … }
 * ```
 */
export function parseCommand(argv: readonly string[]): DevCommand | 'help' {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      port: { type: 'string', short: 'p' },
      host: { type: 'string' },
      db: { type: 'string' },
      'no-watch': { type: 'boolean' },
      redis: { type: 'string' },
      pg: { type: 'string' },
      queue: { type: 'string' },
      schema: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  const [command = 'dev', entry, extra] = positionals;
  if (command !== 'dev') throw new Error(`unknown command "${command}" (try: weft dev [entry])`);
  if (extra !== undefined) throw new Error(`unexpected argument "${extra}": weft dev takes one entry module`);
  const port = Number(values.port ?? 4317);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`--port must be an integer from 0 to 65535, got "${values.port}"`);
  }
  return {
    command: 'dev',
    workers: workersOf(values),
    entry,
    host: values.host ?? '127.0.0.1',
    port,
    database: values.db ?? '.weft/weft.db',
    watch: !values['no-watch'],
  };
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
