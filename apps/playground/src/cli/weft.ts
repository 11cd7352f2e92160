// `weft dev [entry]`: starts the playground server for an entry module (or the built-in demo) and
// reloads it when the entry's files change. Run through bin/weft.mjs (tsx, @weft/source condition).
import { register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';
import { createDemoApp } from '../server/demo/demo-app.ts';
import { EntryLoader } from '../server/load-entry.ts';
import { type PlaygroundServer, startServer } from '../server/server.ts';
import { type DevCommand, parseCommand, usage } from './parse-args.ts';

function describe(server: PlaygroundServer): string {
  const { entries, problems } = server.registry();
  const names = [...entries.keys()].join(', ') || 'nothing';
  return `${entries.size} graph(s)/agent(s): ${names}${problems.length > 0 ? `\n  problems:\n  - ${problems.join('\n  - ')}` : ''}`;
}

async function serveEntry(options: DevCommand): Promise<PlaygroundServer> {
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

async function main(): Promise<void> {
  if (process.argv[2] === 'eval') {
    // `weft eval …` is @weft/eval's CLI; loaded only for this command, so `weft dev` starts as before.
    const { runEvalCli } = await import('@weft/eval');
    process.exitCode = await runEvalCli(process.argv.slice(3), {
      out: (text) => process.stdout.write(`${text}\n`),
      err: (text) => process.stderr.write(`${text}\n`),
      cwd: process.cwd(),
    });
    return;
  }
  const command = parseCommand(process.argv.slice(2), process.env);
  if (command === 'help') {
    console.log(usage);
    return;
  }
  const server = await serveEntry(command);
  console.log(`weft dev: open ${server.openUrl}`);
  if (server.token !== undefined && command.token === undefined)
    console.log("weft dev: bound beyond loopback, so every request needs this start's token (in the link)");
  let closing = false;
  const shutdown = (): void => {
    if (closing) return;
    closing = true;
    void server.close().finally(() => process.exit(0));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((error: unknown) => {
  const inUse = (error as { code?: string }).code === 'EADDRINUSE';
  const message = error instanceof Error ? error.message : String(error);
  console.error(
    `weft: ${inUse ? `${message}: another server uses the port; pick one with --port` : message}`,
  );
  process.exit(1);
});
