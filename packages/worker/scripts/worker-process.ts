// One worker process of `start-workers.ts`: loads WEFT_GRAPHS_MODULE (its `graphs` export) and serves
// it on WEFT_QUEUE until SIGTERM/SIGINT, which hands runs in flight back to the queue.
import { pathToFileURL } from 'node:url';
import { PostgresCheckpointer } from '@weft/store-postgres';
import { createWorker, type GraphMap } from '../src/index.js';

const {
  WEFT_REDIS_URL,
  WEFT_PG_URL,
  WEFT_PG_SCHEMA,
  WEFT_QUEUE,
  WEFT_GRAPHS_MODULE,
  WEFT_CONCURRENCY,
  WEFT_WORKER_ID,
} = process.env;
const module = (await import(pathToFileURL(WEFT_GRAPHS_MODULE ?? '').href)) as { graphs?: GraphMap };
if (!module.graphs) throw new Error(`${WEFT_GRAPHS_MODULE} does not export \`graphs\``);
const checkpointer = new PostgresCheckpointer({
  connectionString: WEFT_PG_URL ?? '',
  ...(WEFT_PG_SCHEMA ? { schema: WEFT_PG_SCHEMA } : {}),
});
const worker = await createWorker({
  graphs: module.graphs,
  connection: WEFT_REDIS_URL ?? '',
  checkpointer,
  ...(WEFT_QUEUE ? { queueName: WEFT_QUEUE } : {}),
  ...(WEFT_WORKER_ID ? { workerId: WEFT_WORKER_ID } : {}),
  concurrency: Number(WEFT_CONCURRENCY ?? 4),
  observer: { runSettled: (run) => console.log(`[${worker.id}] ${run.runId} ${run.status}`) },
});
console.log(`[${worker.id}] serving ${Object.keys(module.graphs).join(', ')} on queue ${worker.queueName}`);
const stop = (): void => {
  void worker
    .close({ requeue: true })
    .then(() => checkpointer.close())
    .then(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
