// Crons through the SDK: a schedule runs an assistant on its thread, or each time on a new thread
// (kept or deleted after the run); crons are searched, updated, deleted, and each user's own.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { ServedServer } from '../src/index.js';
import { chatGraph } from './fixtures/graphs.js';
import { startServer } from './fixtures/start.js';
import { clientOf, twoUsers } from './fixtures/two-users.js';

let clock = new Date('2026-01-01T00:00:00Z');
let served: ServedServer;

beforeAll(async () => {
  ({ served } = await startServer({
    graphs: { chat: chatGraph() },
    auth: twoUsers,
    crons: { tickMs: 20, now: () => clock },
  }));
});
afterAll(() => served.close());

const input = { messages: [{ role: 'user', content: 'nightly report' }] };

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('a thread cron runs its assistant on the thread at each due time', async () => {
  const alice = clientOf(served.url, 'alice');
  const thread = await alice.threads.create();
  const cron = await alice.crons.createForThread(thread.thread_id, 'chat', { schedule: '0 3 * * *', input });
  expect(cron).toMatchObject({
    thread_id: thread.thread_id,
    schedule: '0 3 * * *',
    next_run_date: '2026-01-01T03:00:00.000Z',
  });
  clock = new Date('2026-01-01T03:00:05Z');
  await until(
    () => alice.runs.list(thread.thread_id),
    (runs) => runs.some((run) => run.status === 'success'),
  );
  clock = new Date('2026-01-02T03:00:05Z');
  const runs = await until(
    () => alice.runs.list(thread.thread_id),
    (list) => list.length === 2 && list.every((run) => run.status === 'success'),
  );
  expect(runs.map((run) => run.metadata?.cron_id)).toEqual([cron.cron_id, cron.cron_id]);
  expect(((await alice.threads.getState(thread.thread_id)).values as { turns: number }).turns).toBe(2);
  const [found] = await alice.crons.search({ threadId: thread.thread_id });
  expect(found?.next_run_date).toBe('2026-01-03T03:00:00.000Z');
  await alice.crons.delete(cron.cron_id);
  expect(await alice.crons.search({ threadId: thread.thread_id })).toEqual([]);
});

test('a stateless cron runs on a new thread each time, kept when asked', async () => {
  const alice = clientOf(served.url, 'alice');
  clock = new Date('2026-02-01T00:00:00Z');
  const cron = await alice.crons.create('chat', { schedule: '*/30 * * * *', input, onRunCompleted: 'keep' });
  clock = new Date('2026-02-01T00:30:01Z');
  const threads = await until(
    () => alice.threads.search({ metadata: { graph_id: 'chat' }, status: 'idle', limit: 100 }),
    (list) =>
      list.some(
        (thread) =>
          (thread.values as { turns?: number } | null)?.turns === 1 && thread.thread_id !== undefined,
      ),
  );
  expect(threads.length).toBeGreaterThan(0);
  const updated = await alice.crons.update(cron.cron_id, { schedule: '0 12 * * *', enabled: false });
  expect(updated).toMatchObject({
    schedule: '0 12 * * *',
    enabled: false,
    next_run_date: '2026-02-01T12:00:00.000Z',
  });
});

test("crons are their owner's: another user can neither see, change nor delete them", async () => {
  const alice = clientOf(served.url, 'alice');
  const bob = clientOf(served.url, 'bob');
  const cron = await alice.crons.create('chat', { schedule: '0 0 1 1 *', input });
  expect((await bob.crons.search({ limit: 100 })).map((each) => each.cron_id)).not.toContain(cron.cron_id);
  await expect(bob.crons.update(cron.cron_id, { enabled: false })).rejects.toMatchObject({ status: 404 });
  await expect(bob.crons.delete(cron.cron_id)).rejects.toMatchObject({ status: 404 });
  const aliceThread = await alice.threads.create();
  await expect(
    bob.crons.createForThread(aliceThread.thread_id, 'chat', { schedule: '* * * * *' }),
  ).rejects.toMatchObject({
    status: 404,
  });
  await expect(alice.crons.create('chat', { schedule: '61 * * * *' })).rejects.toMatchObject({ status: 422 });
});
