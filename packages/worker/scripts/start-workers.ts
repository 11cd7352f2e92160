// Starts N local worker processes against Redis and PostgreSQL and keeps them running:
//   pnpm --filter @weft/worker start -- --workers 3 [--module ./my-graphs.ts] [--concurrency 4] [--queue weft-runs]
//     [--schema public]
// WEFT_REDIS_URL (default redis://127.0.0.1:6379) and WEFT_PG_URL (default
// postgres://postgres@127.0.0.1:5432/test). Ctrl-C stops them; their runs in flight go back to the queue.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { PostgresCheckpointer } from '@weft/store-postgres';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((arg) => arg !== '--'),
  options: {
    workers: { type: 'string', default: '2' },
    module: { type: 'string', default: fileURLToPath(new URL('./demo-graphs.ts', import.meta.url)) },
    concurrency: { type: 'string', default: '4' },
    queue: { type: 'string', default: 'weft-runs' },
    schema: { type: 'string', default: 'public' },
  },
});
const env = {
  ...process.env,
  WEFT_REDIS_URL: process.env.WEFT_REDIS_URL ?? 'redis://127.0.0.1:6379',
  WEFT_PG_URL: process.env.WEFT_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  WEFT_GRAPHS_MODULE: resolve(process.env.INIT_CWD ?? process.cwd(), values.module),
  WEFT_CONCURRENCY: values.concurrency,
  WEFT_QUEUE: values.queue,
  WEFT_PG_SCHEMA: values.schema,
};
// Tables first, once: then every worker finds them.
const checkpointer = new PostgresCheckpointer({ connectionString: env.WEFT_PG_URL, schema: values.schema });
await checkpointer.setup();
await checkpointer.close();

const entry = fileURLToPath(new URL('./worker-process.ts', import.meta.url));
const children = Array.from({ length: Number(values.workers) }, (_, i) => {
  const child = spawn(process.execPath, ['--conditions=@weft/source', '--import', 'tsx', entry], {
    env: { ...env, WEFT_WORKER_ID: `worker-${i + 1}` },
    stdio: 'inherit',
  });
  child.on('exit', (code, signal) => console.log(`worker-${i + 1} exited (${signal ?? code})`));
  return child;
});
console.log(`started ${children.length} workers on queue ${values.queue}; Ctrl-C stops them`);
const stop = (): void => {
  for (const child of children) child.kill('SIGTERM');
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
