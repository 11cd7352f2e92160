// One worker process of the workers example (started by workers.ts; run it by hand on more machines).
import { PostgresCheckpointer } from '@weft/store-postgres';
import { createWorker } from '@weft/worker';
import { graphs } from './workers-graphs.js';

const checkpointer = new PostgresCheckpointer({
  connectionString: process.env.WEFT_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  schema: process.env.WEFT_PG_SCHEMA ?? 'weft_examples',
});
const worker = await createWorker({
  graphs,
  connection: process.env.WEFT_REDIS_URL ?? 'redis://127.0.0.1:6379',
  checkpointer,
  queueName: process.env.WEFT_QUEUE ?? 'weft-examples',
  concurrency: 4,
});
process.stdout.write(`ready ${worker.id}\n`);
process.once('SIGTERM', () => {
  // Runs in flight go back to the queue and continue on another worker from their last checkpoint.
  void worker
    .close({ requeue: true })
    .then(() => checkpointer.close())
    .then(() => process.exit(0));
});
