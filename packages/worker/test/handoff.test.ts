import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, deleteQueue, type WeftClient } from '../src/index.js';
import {
  freshCheckpointer,
  missingServices,
  pgUrl,
  redisUrl,
  spawnWorker,
  unique,
  type WorkerProcess,
} from './helpers.js';

const resumeMain = fileURLToPath(new URL('./fixtures/resume-main.ts', import.meta.url));

describe.skipIf(missingServices)('an interrupt across processes', () => {
  const queueName = unique('weft-test-handoff');
  const processes: WorkerProcess[] = [];
  let client: WeftClient;
  let env: Record<string, string>;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const store = await freshCheckpointer();
    drop = store.drop;
    env = {
      WEFT_REDIS_URL: redisUrl,
      WEFT_PG_URL: pgUrl,
      WEFT_QUEUE: queueName,
      WEFT_PG_SCHEMA: store.schema,
    };
    client = createClient({ connection: redisUrl, queueName });
  });

  afterAll(async () => {
    await Promise.all(processes.map((worker) => worker.kill()));
    await client?.close();
    await deleteQueue({ connection: redisUrl, queueName });
    await drop?.();
  });

  it('pauses on worker A, is resumed from another process, and finishes on worker B', async () => {
    const workerA = spawnWorker('A', env);
    processes.push(workerA);
    await workerA.ready;
    const started = await client.submit('approval', { order: 'A-17', log: [] });
    const paused = await started.result();
    expect(paused.status).toBe('interrupted');
    expect(paused.interrupts[0]?.value).toEqual({ question: 'approve A-17?' });
    expect((await started.info())?.workerId).toBe('A');
    await workerA.stop();

    const workerB = spawnWorker('B', env);
    processes.push(workerB);
    await workerB.ready;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        '--conditions=@weft/source',
        '--import',
        'tsx',
        resumeMain,
        queueName,
        'approval',
        started.threadId,
        'true',
      ],
      { env: { ...process.env, WEFT_REDIS_URL: redisUrl } },
    );
    const resumed = client.handle(stdout.trim(), started.threadId);
    const done = await resumed.result();
    expect(done.status).toBe('done');
    // `prepare` ran once, on A; `ask` re-ran on B to receive the answer; `finish` ran on B.
    expect(done.output).toEqual({
      order: 'A-17',
      approved: true,
      log: ['prepare@A', 'ask@B', 'finish:approved@B'],
    });
    expect((await resumed.info())?.workerId).toBe('B');
  });
});
