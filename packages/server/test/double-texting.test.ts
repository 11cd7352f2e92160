// Double texting: a new run on a busy thread follows multitask_strategy — reject, enqueue, interrupt
// (stop the current run, keep its progress) and rollback (stop it, discard its progress and the run).
import type { Client } from '@langchain/langgraph-sdk';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import type { ServedServer } from '../src/index.js';
import { Gate, slowGraph } from './fixtures/graphs.js';
import { startServer } from './fixtures/start.js';

let gate = new Gate();
let served: ServedServer;
let client: Client;

beforeAll(async () => {
  ({ served, client } = await startServer({ graphs: { slow: slowGraph(() => gate) } }));
});
afterAll(() => served.close({ drainMs: 0 }));
beforeEach(() => {
  gate.open();
  gate = new Gate();
});

const start = (
  threadId: string,
  label: string,
  multitaskStrategy?: 'reject' | 'enqueue' | 'interrupt' | 'rollback',
) =>
  client.runs.create(threadId, 'slow', {
    input: { log: [] },
    config: { configurable: { label } },
    ...(multitaskStrategy ? { multitaskStrategy } : {}),
  });

const logOf = async (threadId: string) =>
  ((await client.threads.getState(threadId)).values as { log: string[] }).log;

test('reject: a second run on a busy thread is refused with 422; the first goes on', async () => {
  const thread = await client.threads.create();
  const first = await start(thread.thread_id, 'a');
  await gate.arrived();
  await expect(start(thread.thread_id, 'b', 'reject')).rejects.toMatchObject({ status: 422 });
  await expect(start(thread.thread_id, 'b')).rejects.toThrow(/already running/); // reject is the default
  gate.open();
  await client.runs.join(thread.thread_id, first.run_id);
  expect(await logOf(thread.thread_id)).toEqual(['first:a', 'second:a']);
});

test('enqueue: the second run waits as pending and runs after the first', async () => {
  const thread = await client.threads.create();
  const first = await start(thread.thread_id, 'a');
  await gate.arrived();
  const second = await start(thread.thread_id, 'b', 'enqueue');
  expect((await client.runs.get(thread.thread_id, second.run_id)).status).toBe('pending');
  expect((await client.threads.get(thread.thread_id)).status).toBe('busy');
  gate.open();
  await client.runs.join(thread.thread_id, second.run_id);
  expect((await client.runs.get(thread.thread_id, first.run_id)).status).toBe('success');
  expect(await logOf(thread.thread_id)).toEqual(['first:a', 'second:a', 'first:b', 'second:b']);
});

test('interrupt: the running run stops with its progress kept, then the new one runs', async () => {
  const thread = await client.threads.create();
  const first = await start(thread.thread_id, 'a');
  await gate.arrived();
  const second = await start(thread.thread_id, 'b', 'interrupt');
  await gate.arrived(); // the second run waits at the gate: the first one was stopped
  gate.open();
  await client.runs.join(thread.thread_id, second.run_id);
  expect((await client.runs.get(thread.thread_id, first.run_id)).status).toBe('interrupted');
  expect(await logOf(thread.thread_id)).toEqual(['first:a', 'first:b', 'second:b']);
});

test('rollback: the running run is stopped and deleted, its progress discarded', async () => {
  const thread = await client.threads.create();
  gate.open(); // an earlier, finished run: its progress stays
  await client.runs.wait(thread.thread_id, 'slow', {
    input: { log: [] },
    config: { configurable: { label: '0' } },
  });
  gate = new Gate();
  const first = await start(thread.thread_id, 'a');
  await gate.arrived();
  const second = await start(thread.thread_id, 'b', 'rollback');
  await gate.arrived();
  gate.open();
  await client.runs.join(thread.thread_id, second.run_id);
  await expect(client.runs.get(thread.thread_id, first.run_id)).rejects.toMatchObject({ status: 404 });
  expect(await logOf(thread.thread_id)).toEqual(['first:0', 'second:0', 'first:b', 'second:b']);
});

test('rollback on a fresh thread leaves it without state; interrupt by cancel keeps it', async () => {
  const thread = await client.threads.create();
  const first = await start(thread.thread_id, 'a');
  await gate.arrived();
  await client.runs.cancel(thread.thread_id, first.run_id, true, 'rollback');
  await expect(client.runs.get(thread.thread_id, first.run_id)).rejects.toMatchObject({ status: 404 });
  expect((await client.threads.getState(thread.thread_id)).values).toEqual({});
  expect((await client.threads.get(thread.thread_id)).status).toBe('idle');
  const again = await start(thread.thread_id, 'c');
  await gate.arrived();
  await client.runs.cancel(thread.thread_id, again.run_id, true, 'interrupt');
  expect((await client.runs.get(thread.thread_id, again.run_id)).status).toBe('interrupted');
  expect(await logOf(thread.thread_id)).toEqual(['first:c']);
});
