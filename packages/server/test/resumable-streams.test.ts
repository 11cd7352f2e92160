// Resumable streams: events are stored with their SSE ids, so a client that disconnects picks up with
// Last-Event-ID — from this server or another one over the same database — and gets every event it
// missed, then the live rest. A disconnect leaves the run alone unless on_disconnect asks to cancel.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@langchain/langgraph-sdk';
import { afterEach, expect, test } from 'vitest';
import type { ServedServer } from '../src/index.js';
import { Gate, slowGraph } from './fixtures/graphs.js';
import { startServer } from './fixtures/start.js';

let gate = new Gate();
const servers: ServedServer[] = [];
afterEach(async () => {
  gate.open();
  await Promise.all(servers.splice(0).map((server) => server.close({ drainMs: 0 })));
  gate = new Gate();
});

async function start(database?: string): Promise<Client> {
  const { served, client } = await startServer({
    graphs: { slow: slowGraph(() => gate) },
    ...(database ? { database } : {}),
    limits: { pollMs: 20 },
  });
  servers.push(served);
  return client;
}

type Part = { id?: string; event: string; data: unknown };

/** Reads `count` events of a stream, then disconnects. */
async function readThenDrop(
  stream: AsyncIterable<Part>,
  controller: AbortController,
  count: number,
): Promise<Part[]> {
  const seen: Part[] = [];
  for await (const part of stream) {
    seen.push(part);
    if (seen.length === count) {
      controller.abort();
      break;
    }
  }
  return seen;
}

async function drain(stream: AsyncIterable<Part>): Promise<Part[]> {
  const parts: Part[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

test('a client that disconnects gets every missed event with Last-Event-ID, then the live rest', async () => {
  const client = await start();
  const thread = await client.threads.create();
  const controller = new AbortController();
  const first = await readThenDrop(
    client.runs.stream(thread.thread_id, 'slow', {
      input: { log: [] },
      streamMode: ['updates', 'custom'],
      signal: controller.signal,
    }),
    controller,
    2,
  );
  const runId = (first[0]!.data as { run_id: string }).run_id;
  await gate.arrived();
  expect((await client.runs.get(thread.thread_id, runId)).status).toBe('running'); // not cancelled by the disconnect
  gate.open();
  const rest = await drain(
    client.runs.joinStream(thread.thread_id, runId, { lastEventId: first.at(-1)?.id ?? '-1' }),
  );
  const all = [...first, ...rest];
  expect(all.map((part) => Number(part.id))).toEqual(all.map((_, index) => index)); // none lost, none twice
  expect(all.map((part) => part.event)).toEqual(['metadata', 'updates', 'custom', 'updates']);
  expect((await client.runs.get(thread.thread_id, runId)).status).toBe('success');
});

test('another server over the same database serves the reconnect while the first one runs the graph', async () => {
  const database = join(mkdtempSync(join(tmpdir(), 'weft-server-')), 'server.db');
  const runner = await start(database);
  const other = await start(database);
  const thread = await runner.threads.create();
  const run = await runner.runs.create(thread.thread_id, 'slow', {
    input: { log: [] },
    streamMode: ['updates', 'custom'],
  });
  await gate.arrived();
  const reader = drain(other.runs.joinStream(thread.thread_id, run.run_id, { lastEventId: '0' }));
  gate.open();
  const parts = await reader;
  expect(parts.map((part) => [part.id, part.event])).toEqual([
    ['1', 'updates'],
    ['2', 'custom'],
    ['3', 'updates'],
  ]);
  expect(await other.runs.join(thread.thread_id, run.run_id)).toBeNull(); // no values mode: nothing to return
  expect((await other.threads.getState(thread.thread_id)).values).toEqual({ log: ['first:', 'second:'] });
});

test('a run executing on one server is cancelled through another over the same database', async () => {
  const database = join(mkdtempSync(join(tmpdir(), 'weft-server-')), 'server.db');
  const runner = await start(database);
  const other = await start(database);
  const thread = await runner.threads.create();
  const run = await runner.runs.create(thread.thread_id, 'slow', { input: { log: [] } });
  await gate.arrived();
  await other.runs.cancel(thread.thread_id, run.run_id, false, 'interrupt');
  await other.runs.join(thread.thread_id, run.run_id);
  expect((await other.runs.get(thread.thread_id, run.run_id)).status).toBe('interrupted');
  expect((await runner.threads.getState(thread.thread_id)).values).toEqual({ log: ['first:'] });
});

test('on_disconnect: cancel stops the run when its streaming client goes away', async () => {
  const client = await start();
  const thread = await client.threads.create();
  const controller = new AbortController();
  const seen = await readThenDrop(
    client.runs.stream(thread.thread_id, 'slow', {
      input: { log: [] },
      streamMode: ['updates'],
      onDisconnect: 'cancel',
      signal: controller.signal,
    }),
    controller,
    2,
  );
  const runId = (seen[0]!.data as { run_id: string }).run_id;
  expect(await client.runs.join(thread.thread_id, runId)).toBeNull();
  expect((await client.runs.get(thread.thread_id, runId)).status).toBe('interrupted');
  expect((await client.threads.getState(thread.thread_id)).values).toEqual({ log: ['first:'] }); // progress kept
});

test('a joinStream client with cancelOnDisconnect cancels the run it watched', async () => {
  const client = await start();
  const thread = await client.threads.create();
  const run = await client.runs.create(thread.thread_id, 'slow', {
    input: { log: [] },
    streamMode: ['updates'],
  });
  await gate.arrived();
  const controller = new AbortController();
  await readThenDrop(
    client.runs.joinStream(thread.thread_id, run.run_id, {
      cancelOnDisconnect: true,
      signal: controller.signal,
    }),
    controller,
    1,
  );
  await client.runs.join(thread.thread_id, run.run_id);
  expect((await client.runs.get(thread.thread_id, run.run_id)).status).toBe('interrupted');
});
