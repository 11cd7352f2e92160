import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { PostgresCheckpointer } from '@weft/store-postgres';
import { createClient, deleteQueue, PostgresRunJournal, type WeftClient } from '@weft/worker';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { otelTracing } from '../src/index.js';
import {
  type OtlpReceiver,
  type ReceivedSpan,
  receivedTree,
  startOtlpReceiver,
} from '../src/testing/index.js';

const redisUrl = process.env.WEFT_REDIS_URL ?? '';
const pgUrl = process.env.WEFT_PG_URL ?? '';
const missingServices = redisUrl === '' || pgUrl === '';
if (missingServices) {
  console.warn(
    'WEFT_REDIS_URL or WEFT_PG_URL not set: skipping the traced-worker scenario (e.g. WEFT_REDIS_URL=redis://127.0.0.1:6379 WEFT_PG_URL=postgres://postgres@127.0.0.1:5432/test)',
  );
}

const tag = `${process.pid.toString(36)}${Date.now().toString(36)}`;
const workerMain = fileURLToPath(new URL('./fixtures/traced-worker.ts', import.meta.url));

/** A traced worker child process; `stop()` closes it with SIGTERM (its spans flushed) and waits for its exit. */
function spawnWorker(
  id: string,
  env: Record<string, string>,
): { ready: Promise<void>; stop: () => Promise<void> } {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--conditions=@weft/source', '--import', 'tsx', workerMain],
    {
      env: { ...process.env, ...env, WEFT_WORKER_ID: id },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve();
    });
    void exited.then(() => reject(new Error(`worker ${id} exited before it was ready`)));
  });
  ready.catch(() => undefined);
  return {
    ready,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

describe.skipIf(missingServices)('one trace across the client and two worker processes', () => {
  const queueName = `weft-test-otel-${tag}`;
  const schema = `weft_otel_${tag}`;
  const stops: Array<() => Promise<void>> = [];
  let receiver: OtlpReceiver;
  let client: WeftClient;
  let provider: BasicTracerProvider;
  let journal: PostgresRunJournal;
  const contextManager = new AsyncLocalStorageContextManager();

  beforeAll(async () => {
    context.setGlobalContextManager(contextManager.enable());
    receiver = await startOtlpReceiver();
    const checkpointer = new PostgresCheckpointer({ connectionString: pgUrl, schema });
    await checkpointer.setup();
    await checkpointer.close();
    journal = new PostgresRunJournal({ connectionString: pgUrl, schema });
    await journal.setup();
    const exporter = new OTLPTraceExporter({ url: receiver.url, headers: { 'x-weft-worker': 'client' } });
    provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const tracing = otelTracing({ tracerProvider: provider });
    client = createClient({
      connection: redisUrl,
      queueName,
      journal,
      carrier: (run) => tracing.carrier(run),
    });
  });

  afterAll(async () => {
    await Promise.all(stops.map((stop) => stop()));
    await client?.close();
    await journal?.close();
    await deleteQueue({ connection: redisUrl, queueName });
    const pool = new pg.Pool({ connectionString: pgUrl });
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
    await provider?.shutdown();
    await receiver?.close();
    context.disable();
  });

  it('pauses on worker A, resumes on worker B: every span shares the client trace, the resumed run links to the paused one', async () => {
    const env = {
      WEFT_REDIS_URL: redisUrl,
      WEFT_PG_URL: pgUrl,
      WEFT_QUEUE: queueName,
      WEFT_PG_SCHEMA: schema,
      OTLP_URL: receiver.url,
    };
    const root = provider.getTracer('test').startSpan('place order');
    const inRoot = trace.setSpan(context.active(), root);
    const workerA = spawnWorker('A', env);
    stops.push(workerA.stop);
    await workerA.ready;
    const started = await context.with(inRoot, () => client.submit('approval', { order: 'A-17', log: [] }));
    const paused = await started.result();
    expect(paused.status).toBe('interrupted');
    await workerA.stop();

    const workerB = spawnWorker('B', env);
    stops.push(workerB.stop);
    await workerB.ready;
    const resumed = await context.with(inRoot, () => client.resume('approval', paused.threadId, true));
    expect((await resumed.result()).output).toMatchObject({ log: ['prepare', 'approve', 'shipped'] });
    expect((await resumed.info())?.workerId).toBe('B');
    root.end();
    await workerB.stop();
    await provider.forceFlush();
    const runs = (spans: readonly ReceivedSpan[]) => spans.filter((s) => s.name === 'run approval').length;
    await receiver.until((spans) => runs(spans) === 2 && spans.some((s) => s.name === 'place order'));

    const spans = receiver.spans;
    expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([root.spanContext().traceId]));
    const from = (s: ReceivedSpan) => `(${String(s.headers['x-weft-worker'])})`;
    expect(receivedTree(spans, from)).toEqual([
      'place order (client)',
      '  submit approval (client)',
      '    run approval (A)',
      '      step 0 (A)',
      '        node prepare (A)',
      '      step 1 (A)',
      '        node approve (A)',
      '  submit approval (client)',
      '    run approval (B)',
      '      step 1 (B)',
      '        node approve (B)',
      '      step 2 (B)',
      '        node ship (B)',
    ]);
    const [first, second] = spans
      .filter((s) => s.name === 'run approval')
      .sort((a, b) => (a.start < b.start ? -1 : 1));
    expect(first?.attributes).toMatchObject({
      'weft.run.status': 'interrupted',
      'weft.run.id': started.runId,
    });
    expect(second?.attributes).toMatchObject({ 'weft.run.status': 'done', 'weft.run.resumed': true });
    // Worker B never saw the paused run: the link comes from the carrier worker A kept in the journal.
    expect(second?.links.map((link) => link.spanId)).toEqual([first?.spanId]);
    expect(first?.kind).toBe(5); // CONSUMER (OTLP numbering)
    // Two worker processes start through tsx inside this test: minutes on a loaded 2-core machine (it
    // took over 4 min at load average 80). Timeouts on process tests only catch hangs.
  }, 600_000);
});
