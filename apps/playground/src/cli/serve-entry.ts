// Starts the playground server for `weft dev` and reloads it when the entry's files change. Imported
// by weft.ts only once the arguments are read, so `weft --help` loads none of the server.
import { register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';
import type { WeftTracing } from '@weft/otel';
import { createDemoApp } from '../server/demo/demo-app.ts';
import { EntryLoader } from '../server/load-entry.ts';
import { type PlaygroundServer, startServer } from '../server/server.ts';
import type { DevCommand } from './parse-args.ts';

function describe(server: PlaygroundServer): string {
  const { entries, problems } = server.registry();
  const names = [...entries.keys()].join(', ') || 'nothing';
  return `${entries.size} graph(s)/agent(s): ${names}${problems.length > 0 ? `\n  problems:\n  - ${problems.join('\n  - ')}` : ''}`;
}

/**
 * Serves the command's entry module (or the built-in demo), reloading it on change unless `--no-watch`;
 * with `tracing` (`--otlp`), every run is traced.
 *
 * @example
 * ```ts
 * const server = await serveEntry(parseCommand(['dev', 'graphs.ts']) as DevCommand);
 * ```
 */
export async function serveEntry(command: DevCommand, tracing?: WeftTracing): Promise<PlaygroundServer> {
  const options = { ...command, ...(tracing ? { tracing } : {}) };
  if (options.entry === undefined) {
    const server = await startServer({ app: createDemoApp(), ...options });
    console.log(`weft dev: serving the built-in demo, ${describe(server)}`);
    return server;
  }
  const { port1, port2 } = new MessageChannel();
  register(new URL('./reload-hooks.mjs', import.meta.url), { data: { port: port2 }, transferList: [port2] });
  const loader = new EntryLoader(options.entry, port1);
  let current = await loader.load();
  const server = await startServer({ app: current, ...options });
  const where = options.workers ? ` on the workers of queue ${options.workers.queue ?? 'weft-runs'}` : '';
  console.log(`weft dev: serving ${options.entry}${where}, ${describe(server)}`);
  if (!options.watch) return server;
  let stop = (): void => undefined;
  const reload = async (): Promise<void> => {
    try {
      const next = await loader.load();
      server.reload(next);
      current = next;
      console.log(`weft dev: reloaded ${options.entry}, ${describe(server)}`);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // Keep serving what loaded last, with the failure listed next to the graphs.
      server.reload(current, [`reloading ${options.entry} failed: ${message}`]);
      console.error(
        `weft dev: reloading ${options.entry} failed (still serving the previous version):\n${message}`,
      );
    }
    stop();
    stop = loader.watch(() => void reload());
  };
  stop = loader.watch(() => void reload());
  return server;
}
