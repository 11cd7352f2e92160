import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WireEvent } from '../../src/shared/wire.ts';
import { type Harness, readEvents, startHarness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('runs over HTTP', () => {
  it('lists graphs and agents with their topology and input schema', async () => {
    const { status, body } = await h.request('GET', '/api/graphs');
    expect(status).toBe(200);
    expect(body.problems).toEqual([]);
    const ids = body.graphs.map((g: { id: string }) => g.id);
    expect(ids).toEqual([
      'counter-loop',
      'map-reduce',
      'dag-pipeline',
      'refund-approval',
      'assistant',
      'supervisor',
      'plan-execute',
      'host',
      'barista',
    ]);
    const loop = body.graphs[0];
    expect(loop.topology.nodes.map((n: { id: string }) => n.id)).toEqual([
      '__start__',
      'increment',
      'report',
      '__end__',
    ]);
    expect(loop.topology.edges).toContainEqual({
      source: 'increment',
      target: 'increment',
      kind: 'conditional',
    });
    expect(loop.inputSchema.properties.target).toMatchObject({ type: 'integer', minimum: 1, default: 5 });
    const mapReduce = body.graphs[1];
    expect(
      mapReduce.topology.nodes.find((n: { id: string }) => n.id === 'summarize').subgraph.nodes,
    ).toHaveLength(4);
    expect(body.graphs[2]).toMatchObject({ id: 'dag-pipeline', breakpoints: false });
    expect(body.graphs[0]).toMatchObject({ id: 'counter-loop', breakpoints: true });
  });

  it('starts a run and streams its events to the end, then keeps the history', async () => {
    const thread = await h.thread('counter-loop');
    const run = await h.start(thread, { target: 3, delayMs: 5 });
    expect(run.status).toBe('running');
    const { events, end } = await h.finished(run.id);
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('run-start');
    expect(types.at(-1)).toBe('run-end');
    expect(events.filter((e) => e.type === 'node-end' && e.node === 'increment')).toHaveLength(3);
    expect(end).toMatchObject({ status: 'done', steps: 4 });
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
    const history = (await h.request('GET', `/api/threads/${thread}/history`)).body;
    expect(history.map((s: { step: number }) => s.step)).toEqual([3, 2, 1, 0, -1]);
    expect(history[0].values).toMatchObject({ count: 3, target: 3 });
    const state = (await h.request('GET', `/api/threads/${thread}/state`)).body;
    expect(state.next).toEqual([]);
  });

  it('gives a late subscriber the backlog, and honours ?after=', async () => {
    const thread = await h.thread('counter-loop');
    const run = await h.start(thread, { target: 2, delayMs: 1 });
    const all = await h.events(run.id);
    const late = await readEvents(`${h.server.url}/api/runs/${run.id}/events?after=${all.length - 3}`);
    expect(late.map((e) => e.seq)).toEqual([all.length - 2, all.length - 1]);
    expect((await h.request('GET', `/api/runs/${run.id}`)).body.status).toBe('done');
  });

  it('stops a run: it ends as cancelled, no node starts afterwards, and the thread can continue', async () => {
    const thread = await h.thread('counter-loop');
    const run = await h.start(thread, { target: 50, delayMs: 200 });
    const seen: WireEvent[] = [];
    const streaming = readEvents(`${h.server.url}/api/runs/${run.id}/events`, (e) => seen.push(e));
    await expect
      .poll(() => seen.filter((e) => e.type === 'node-end').length, { timeout: 5_000 })
      .toBeGreaterThanOrEqual(2);
    const stopped = await h.request('POST', `/api/runs/${run.id}/stop`);
    expect(stopped.status).toBe(200);
    expect(stopped.body.status).toBe('cancelled');
    expect(stopped.body.error.code).toBe('ABORTED');
    const events = await streaming;
    const end = events.findIndex((e) => e.type === 'run-error');
    expect(end).toBeGreaterThan(0);
    expect(events.slice(end).some((e) => e.type === 'node-start')).toBe(false);
    const finished = events.filter((e) => e.type === 'node-end').length;
    await new Promise((resolve) => setTimeout(resolve, 400));
    const state = (await h.request('GET', `/api/threads/${thread}/state`)).body;
    expect(state.values.count).toBe(finished);
    expect(state.next).toEqual(['increment']);
    expect(
      (await h.request('GET', '/api/threads?graphId=counter-loop')).body.find(
        (t: { id: string }) => t.id === thread,
      ).status,
    ).toBe('cancelled');
    await h.request('POST', `/api/threads/${thread}/state`, { values: { target: finished + 1, delayMs: 1 } });
    const resumed = await h.request('POST', `/api/threads/${thread}/continue`, {});
    expect(resumed.status).toBe(202);
    expect((await h.finished(resumed.body.id)).end).toMatchObject({ status: 'done' });
    expect((await h.request('GET', `/api/threads/${thread}/state`)).body.values.count).toBe(finished + 1);
  });

  it('pauses for a human and resumes with the answer', async () => {
    const thread = await h.thread('refund-approval');
    const run = await h.start(thread, { amount: 25 });
    const { end: status } = await h.finished(run.id);
    expect(status).toMatchObject({ status: 'interrupted' });
    const [interrupt] = status.interrupts as unknown as ReadonlyArray<{
      id: string;
      value: { question: string; schema: object };
    }>;
    expect(interrupt!.value.question).toBe('Refund 25 EUR for order A-17?');
    expect(interrupt!.value.schema).toMatchObject({ type: 'object', required: ['approve', 'reviewer'] });
    const resumed = await h.request('POST', `/api/threads/${thread}/resume`, {
      interruptId: interrupt!.id,
      value: { approve: true, reviewer: 'dana' },
    });
    expect(resumed.status).toBe(202);
    expect((await h.finished(resumed.body.id)).end).toMatchObject({ status: 'done' });
    const state = (await h.request('GET', `/api/threads/${thread}/state`)).body;
    expect(state.values).toMatchObject({ decision: 'approved', reviewer: 'dana' });
    expect(state.values.log.at(-1)).toBe('paid 25 EUR for A-17');
  });

  it('pauses at a breakpoint set on the thread, and continues', async () => {
    const thread = await h.thread('counter-loop');
    const set = await h.request('PUT', `/api/threads/${thread}/breakpoints`, { before: ['report'] });
    expect(set.body.breakpoints).toEqual({ before: ['report'], after: [] });
    const run = await h.start(thread, { target: 2, delayMs: 1 });
    const { end: status } = await h.finished(run.id);
    expect(status).toMatchObject({ status: 'interrupted' });
    expect((status.interrupts as ReadonlyArray<{ value: unknown }>)[0]!.value).toEqual({
      breakpoint: 'before',
      node: 'report',
    });
    const continued = await h.request('POST', `/api/threads/${thread}/continue`, {});
    expect((await h.finished(continued.body.id)).end).toMatchObject({ status: 'done' });
  });

  it('runs a DAG graph with checkpoints: history and a fork, but no static breakpoints', async () => {
    const thread = await h.thread('dag-pipeline');
    const run = await h.start(thread, { text: 'graphs are   fun' });
    const { events, end: info } = await h.finished(run.id);
    expect(info).toMatchObject({ status: 'done' });
    const end = events.find((e) => e.type === 'run-end');
    expect(end?.output).toMatchObject({ words: 3, characters: 14, longest: 'graphs' });
    const history = (await h.request('GET', `/api/threads/${thread}/history`)).body as Array<{
      checkpointId: string;
      source: string;
      values: Record<string, unknown>;
    }>;
    expect(history.length).toBeGreaterThanOrEqual(2);
    const input = history.find((snapshot) => snapshot.source === 'input');
    expect(input).toBeDefined();
    // A fork from the input checkpoint runs the whole DAG again, on a new branch of the history.
    const fork = await h.request('POST', `/api/threads/${thread}/fork`, {
      checkpointId: input!.checkpointId,
    });
    expect(fork.status).toBe(202);
    const forked = await h.finished(fork.body.id);
    expect(forked.end).toMatchObject({ status: 'done' });
    expect(forked.events.find((e) => e.type === 'run-end')?.output).toMatchObject({
      words: 3,
      longest: 'graphs',
    });
    const started = forked.events.filter((e) => e.type === 'node-start').map((e) => e.node);
    expect(new Set(started)).toEqual(new Set(['normalize', 'words', 'characters', 'longest', 'report']));
    const after = (await h.request('GET', `/api/threads/${thread}/history`)).body as unknown[];
    expect(after.length).toBeGreaterThan(history.length);
    const bp = await h.request('PUT', `/api/threads/${thread}/breakpoints`, {
      before: ['report'],
      after: [],
    });
    expect(bp).toMatchObject({ status: 400, body: { error: { code: 'NO_BREAKPOINTS' } } });
  });
});
