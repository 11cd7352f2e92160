// `weft dev [entry]`: starts the playground server for an entry module (or the built-in demo) and
// reloads it when the entry's files change; `weft serve <entry>` hands over to @weft/server's CLI.
// Run through bin/weft.mjs (tsx, @weft/source condition).
import { parseCommand, usage } from './parse-args.ts';

async function main(): Promise<void> {
  if (process.argv[2] === 'init') {
    const { runCreate } = await import('create-weft');
    process.exitCode = runCreate(process.argv.slice(3));
    return;
  }
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
  if (process.argv[2] === 'db') {
    // `db …` looks after the checkpoint store (stats, prune, migrate, verify, export, import).
    const { runDbCli } = await import('./db/run-db.ts');
    process.exitCode = await runDbCli(process.argv.slice(3), {
      out: (text) => process.stdout.write(`${text}\n`),
      err: (text) => process.stderr.write(`${text}\n`),
    });
    return;
  }
  if (process.argv[2] === 'replay') {
    // `replay <thread>`: a recorded thread re-run against the current code, per node differences.
    const { runReplayCli } = await import('./db/run-replay.ts');
    process.exitCode = await runReplayCli(process.argv.slice(3), {
      out: (text) => process.stdout.write(`${text}\n`),
      err: (text) => process.stderr.write(`${text}\n`),
    });
    return;
  }
  if (process.argv[2] === 'serve') {
    // `weft serve <entry>` is @weft/server's CLI (the LangGraph API for the entry's graphs); loaded only for
    // this command. It runs until SIGINT/SIGTERM, then shuts down gracefully.
    const { runServeCli } = await import('@weft/server');
    const running = await runServeCli(process.argv.slice(3), {
      out: (text) => process.stdout.write(`${text}\n`),
      err: (text) => process.stderr.write(`${text}\n`),
      env: process.env,
    });
    if (running === undefined) return;
    const stop = (): void => void running.close().finally(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    return;
  }
  const command = parseCommand(process.argv.slice(2), process.env);
  if (command === 'help') {
    console.log(usage);
    return;
  }
  const { serveEntry } = await import('./serve-entry.ts');
  // `--otlp`: the OpenTelemetry SDK and exporter are loaded only when asked for.
  const otlp =
    command.otlp === undefined ? undefined : (await import('./otlp-export.ts')).startOtlpExport(command.otlp);
  const server = await serveEntry(command, otlp?.tracing);
  if (command.otlp !== undefined) console.log(`weft dev: exporting traces to ${command.otlp}`);
  console.log(`weft dev: open ${server.openUrl}`);
  if (server.token !== undefined && command.token === undefined)
    console.log("weft dev: the link carries this start's access token; it becomes a cookie of this port");
  let closing = false;
  const shutdown = (): void => {
    if (closing) return;
    closing = true;
    void server
      .close()
      .then(() => otlp?.shutdown())
      .finally(() => process.exit(0));
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
