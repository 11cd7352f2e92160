import { setTimeout as sleep } from 'node:timers/promises';
import { type Checkpointer, END, START, StateGraph } from '@weft/compose';
import { PostgresCheckpointer } from '@weft/store-postgres';
import { createClient, createWorker, deleteQueue, type WeftWorker } from '@weft/worker';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { appFromModule } from '../../src/server/define-app.ts';
import { type PlaygroundServer, startServer } from '../../src/server/server.ts';
import type { GraphInfo, RunInfo, SnapshotInfo, ThreadInfo, WireEvent } from '../../src/shared/wire.ts';
import { readEvents, readRun } from './harness.ts';

const redisUrl = process.env.WEFT_REDIS_URL ?? '';
const pgUrl = process.env.WEFT_PG_URL ?? '';
const missing = [redisUrl === '' && 'WEFT_REDIS_URL', pgUrl === '' && 'WEFT_PG_URL'].filter(Boolean);
if (missing.length > 0) {
  console.warn(
    `${missing.join(' and ')} not set: skipping the playground's worker-mode tests (e.g. WEFT_REDIS_URL=redis://127.0.0.1:6379 WEFT_PG_URL=postgres://postgres@127.0.0.1:5432/test)`,
  );
}

const counterState = z.object({ count: z.number(), target: z.number(), delayMs: z.number() });

const counter = new StateGraph(counterState)
  .addNode('tick', async (state, ctx) => {
    await sleep(state.delayMs, undefined, { signal: ctx.signal });
    return { count: state.count + 1 };
  })
  .addEdge(START, 'tick')
  .addConditionalEdges('tick', (state) => (state.count >= state.target ? END : 'tick'), ['tick', END]);

const approval = new StateGraph(z.object({ order: z.string(), approved: z.boolean().optional() }))
  .addNode('ask', (state, ctx) => ({
    approved: ctx.interrupt<boolean>({ question: `ship ${state.order}?` }),
  }))
  .addEdge(START, 'ask')
  .addEdge('ask', END);

/** What the workers serve and the playground's entry exports: a worker `GraphMap`. */
const graphs = {
  counter: (checkpointer: Checkpointer) =>
    counter.compile({ checkpointer, name: 'counter', maxSteps: 10_000 }),
  approval: (checkpointer: Checkpointer) => approval.compile({ checkpointer, name: 'approval' }),
};

/** The counter of a state snapshot's values. */
function countOf(state: SnapshotInfo): number {
  return (state.values as z.infer<typeof counterState>).count;
}

const suffix = `${process.pid.toString(36)}${Date.now().toString(36)}`;
const queueName = `playground-${suffix}`;
const schema = `weft_playground_${suffix}`;

describe.skipIf(missing.length > 0)('attached to a worker deployment (weft dev --redis … --pg …)', () => {
  let checkpointer: PostgresCheckpointer;
  let worker: WeftWorker;
  let server: PlaygroundServer;
  /** A JSON request; `T` is what the answer's body is read as. */
  const request = async <T = unknown>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: T }> => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      headers: { 'content-type': 'application/json' },
    });
    const text = await response.text();
    return { status: response.status, body: (text === '' ? undefined : JSON.parse(text)) as T };
  };
  const startRun = async (input: unknown, graphId = 'counter'): Promise<RunInfo> => {
    const thread = (await request<ThreadInfo>('POST', '/api/threads', { graphId })).body.id;
    const answer = await request<RunInfo>('POST', `/api/threads/${thread}/runs`, { input });
    expect(answer.status).toBe(202);
    return answer.body;
  };

  beforeAll(async () => {
    checkpointer = new PostgresCheckpointer({ connectionString: pgUrl, schema });
    await checkpointer.setup();
    worker = await createWorker({ graphs, connection: redisUrl, checkpointer, queueName, concurrency: 2 });
    server = await startServer({
      app: appFromModule({ graphs }),
      port: 0,
      database: ':memory:',
      workers: { redis: redisUrl, pg: pgUrl, queue: queueName, schema },
      token: false,
    });
  });

  afterAll(async () => {
    await server?.close();
    await worker?.close({ requeue: true });
    await deleteQueue({ connection: redisUrl, queueName });
    await checkpointer?.close();
    const pool = new pg.Pool({ connectionString: pgUrl });
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  });

  it('lists the entry graphs, submits a run to the workers, streams its events and reads its state', async () => {
    const graphList = (await request<{ graphs: GraphInfo[] }>('GET', '/api/graphs')).body;
    expect(graphList.graphs.map((g) => g.id)).toEqual(['counter', 'approval']);
    expect(graphList.graphs[0]?.breakpoints).toBe(true);
    const run = await startRun({ count: 0, target: 3, delayMs: 1 });
    expect(run.status).toBe('running');
    const { events, end } = await readRun(`${server.url}/api/runs/${run.id}/events`);
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('run-start');
    expect(types.at(-1)).toBe('run-end');
    expect(events.filter((e) => e.type === 'node-end' && e.node === 'tick')).toHaveLength(3);
    expect(end).toMatchObject({ status: 'done', steps: 3 });
    const state = (await request<SnapshotInfo>('GET', `/api/threads/${run.threadId}/state`)).body;
    expect(state.values).toEqual({ count: 3, target: 3, delayMs: 1 });
    expect(state.next).toEqual([]);
    const history = (await request<SnapshotInfo[]>('GET', `/api/threads/${run.threadId}/history`)).body;
    expect(history.length).toBeGreaterThan(3);
    expect((await request<RunInfo>('GET', `/api/runs/${run.id}`)).body.status).toBe('done');
  });

  it('forks with values from an older checkpoint; without values only the latest one can run', async () => {
    const run = await startRun({ count: 0, target: 2, delayMs: 1 });
    await readEvents(`${server.url}/api/runs/${run.id}/events`);
    const history = (await request<SnapshotInfo[]>('GET', `/api/threads/${run.threadId}/history`)).body;
    const afterFirst = history.find((s) => countOf(s) === 1 && s.next.includes('tick'));
    if (!afterFirst) throw new Error('no checkpoint after the first tick');
    const refused = await request('POST', `/api/threads/${run.threadId}/fork`, {
      checkpointId: afterFirst.checkpointId,
    });
    expect(refused.status).toBe(400);
    const fork = await request<RunInfo>('POST', `/api/threads/${run.threadId}/fork`, {
      checkpointId: afterFirst.checkpointId,
      values: { target: 4 },
    });
    expect(fork.status).toBe(202);
    const forked = await readRun(`${server.url}/api/runs/${fork.body.id}/events`);
    expect(forked.end).toMatchObject({ status: 'done' });
    const state = (await request<SnapshotInfo>('GET', `/api/threads/${run.threadId}/state`)).body;
    expect(state.values).toEqual({ count: 4, target: 4, delayMs: 1 });
  });

  it('answers an interrupt through client.resume', async () => {
    const run = await startRun({ order: 'A-17' }, 'approval');
    const { end: paused } = await readRun(`${server.url}/api/runs/${run.id}/events`);
    expect(paused).toMatchObject({ status: 'interrupted' });
    expect(paused.interrupts).toEqual([expect.objectContaining({ value: { question: 'ship A-17?' } })]);
    const resume = await request<RunInfo>('POST', `/api/threads/${run.threadId}/resume`, { value: true });
    expect(resume.status).toBe(202);
    const resumed = await readRun(`${server.url}/api/runs/${resume.body.id}/events`);
    expect(resumed.end).toMatchObject({ status: 'done', kind: 'resume' });
    const state = (await request<SnapshotInfo>('GET', `/api/threads/${run.threadId}/state`)).body;
    expect(state.values).toEqual({ order: 'A-17', approved: true });
  });

  it('stops a worker run (client.cancel): it ends as cancelled and the thread can continue', async () => {
    const run = await startRun({ count: 0, target: 1_000, delayMs: 100 });
    let firstTick: () => void = () => undefined;
    const started = new Promise<void>((resolve) => {
      firstTick = resolve;
    });
    const seen: WireEvent[] = [];
    // Stop once the first tick is committed: its step's checkpoint is saved (a node-end alone comes
    // before that, and a stop in between leaves the tick as stored task writes of the input step).
    const streaming = readRun(`${server.url}/api/runs/${run.id}/events`, (event) => {
      seen.push(event);
      if (event.type === 'checkpoint-save' && event.path.length === 0 && (event.step ?? 0) >= 1) firstTick();
    });
    await started;
    const stopped = await request('POST', `/api/runs/${run.id}/stop`);
    expect(stopped.status).toBe(200);
    expect((await streaming).end).toMatchObject({ status: 'cancelled' });
    const state = (await request<SnapshotInfo>('GET', `/api/threads/${run.threadId}/state`)).body;
    expect(countOf(state)).toBeGreaterThan(0);
    expect(countOf(state)).toBeLessThan(1_000);
    expect(state.next).toEqual(['tick']);
    expect(
      (await request<{ thread: ThreadInfo }>('GET', `/api/threads/${run.threadId}`)).body.thread.status,
    ).toBe('cancelled');
  });

  it('shows runs other clients submitted to the workers', async () => {
    const client = createClient({ connection: redisUrl, queueName });
    try {
      const threadId = `external-${suffix}`;
      const handle = await client.submit('counter', { count: 5, target: 7, delayMs: 1 }, { threadId });
      expect((await handle.result()).status).toBe('done');
      const threads = (await request<ThreadInfo[]>('GET', '/api/threads')).body;
      expect(threads).toContainEqual(expect.objectContaining({ id: threadId, graphId: 'counter' }));
      const detail = (await request<{ runs: RunInfo[] }>('GET', `/api/threads/${threadId}`)).body;
      expect(detail.runs).toEqual([expect.objectContaining({ id: handle.runId, status: 'done' })]);
      const state = (await request<SnapshotInfo>('GET', `/api/threads/${threadId}/state`)).body;
      expect(countOf(state)).toBe(7);
    } finally {
      await client.close();
    }
  });
});
