// Graceful shutdown: a server closing lets runs finish within the drain time, and hands back the rest —
// the next server over the same database continues them from their last checkpoint, finished nodes
// not run again.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { Gate, slowGraph } from './fixtures/graphs.js';
import { startServer } from './fixtures/start.js';

test('a run still going at shutdown is handed back and continued by the next server', async () => {
  const database = join(mkdtempSync(join(tmpdir(), 'weft-server-')), 'server.db');
  let gate = new Gate();
  let firstRuns = 0;
  const graph = slowGraph(() => gate);
  const first = await startServer({ graphs: { slow: graph }, database });
  const thread = await first.client.threads.create();
  const run = await first.client.runs.create(thread.thread_id, 'slow', { input: { log: [] } });
  await gate.arrived();
  firstRuns = gate.waiting;
  await first.served.close({ drainMs: 0 });
  expect(firstRuns).toBe(1);
  gate = new Gate();
  gate.open();
  const second = await startServer({ graphs: { slow: graph }, database });
  try {
    await second.client.runs.join(thread.thread_id, run.run_id);
    expect((await second.client.runs.get(thread.thread_id, run.run_id)).status).toBe('success');
    expect((await second.client.threads.getState(thread.thread_id)).values).toEqual({
      log: ['first:', 'second:'],
    });
  } finally {
    await second.served.close();
  }
});

test('runs that finish within the drain time finish', async () => {
  const gate = new Gate();
  const { served, client } = await startServer({ graphs: { slow: slowGraph(() => gate) } });
  const thread = await client.threads.create();
  const run = await client.runs.create(thread.thread_id, 'slow', { input: { log: [] } });
  await gate.arrived();
  const closing = served.close({ drainMs: 60_000 });
  expect(await (await fetch(`${served.url}/ready`)).json()).toEqual({ ready: false });
  gate.open();
  await closing;
  expect(served.server.activeRuns).toBe(0);
  expect(run.status).toBe('pending');
});
