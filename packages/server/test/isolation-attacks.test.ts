// Auth and per-user isolation, tested as attacks: Bob, authenticated, tries every route on Alice's
// assistant, thread, runs and store items and gets "not found" (or 403 for namespaces not his); without
// credentials every route but health, readiness and the OpenAPI document answers 401. Alice's things
// are intact afterwards.
import type { Client } from '@langchain/langgraph-sdk';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ServedServer } from '../src/index.js';
import { approvalGraph, chatGraph } from './fixtures/graphs.js';
import { startServer } from './fixtures/start.js';
import { clientOf, twoUsers } from './fixtures/two-users.js';

let served: ServedServer;
let alice: Client;
let bob: Client;
let mine: { assistant: string; thread: string; run: string; checkpoint: string };

beforeAll(async () => {
  ({ served } = await startServer({
    graphs: { chat: chatGraph(), approval: approvalGraph() },
    auth: twoUsers,
  }));
  alice = clientOf(served.url, 'alice');
  bob = clientOf(served.url, 'bob');
  const assistant = await alice.assistants.create({ graphId: 'approval', name: 'alice-approver' });
  const thread = await alice.threads.create({ metadata: { secret: 'alice' } });
  const run = await alice.runs.create(thread.thread_id, assistant.assistant_id, {
    input: { request: 'raise' },
  });
  await alice.runs.join(thread.thread_id, run.run_id);
  const state = await alice.threads.getState(thread.thread_id);
  await alice.store.putItem(['alice', 'notes'], 'n1', { text: 'private' });
  mine = {
    assistant: assistant.assistant_id,
    thread: thread.thread_id,
    run: run.run_id,
    checkpoint: state.checkpoint.checkpoint_id ?? '',
  };
});
afterAll(() => served.close());

const notFound = { status: 404 };
const forbidden = { status: 403 };

describe("Bob cannot reach Alice's things through any route", () => {
  test('assistants', async () => {
    const id = mine.assistant;
    await expect(bob.assistants.get(id)).rejects.toMatchObject(notFound);
    await expect(bob.assistants.update(id, { name: 'mine now' })).rejects.toMatchObject(notFound);
    await expect(bob.assistants.delete(id)).rejects.toMatchObject(notFound);
    await expect(bob.assistants.getVersions(id)).rejects.toMatchObject(notFound);
    await expect(bob.assistants.setLatest(id, 1)).rejects.toMatchObject(notFound);
    await expect(bob.assistants.getGraph(id)).rejects.toMatchObject(notFound);
    await expect(bob.assistants.getSchemas(id)).rejects.toMatchObject(notFound);
    await expect(bob.assistants.getSubgraphs(id)).rejects.toMatchObject(notFound);
    expect((await bob.assistants.search({ limit: 100 })).map((each) => each.assistant_id)).not.toContain(id);
    const ownThread = await bob.threads.create();
    await expect(bob.runs.wait(ownThread.thread_id, id, { input: { request: 'x' } })).rejects.toMatchObject(
      notFound,
    );
    // The server's default assistants are shared, read only.
    await expect(bob.assistants.update('chat', { name: 'hijacked' })).rejects.toMatchObject(forbidden);
  });

  test('threads and their state', async () => {
    const id = mine.thread;
    await expect(bob.threads.get(id)).rejects.toMatchObject(notFound);
    await expect(bob.threads.update(id, { metadata: { secret: 'bob' } })).rejects.toMatchObject(notFound);
    await expect(bob.threads.getState(id)).rejects.toMatchObject(notFound);
    await expect(bob.threads.getState(id, mine.checkpoint)).rejects.toMatchObject(notFound);
    await expect(
      bob.threads.getState(id, {
        thread_id: id,
        checkpoint_ns: '',
        checkpoint_id: mine.checkpoint,
        checkpoint_map: null,
      }),
    ).rejects.toMatchObject(notFound);
    await expect(
      bob.threads.updateState(id, { values: { request: 'forged' }, asNode: 'ask' }),
    ).rejects.toMatchObject(notFound);
    await expect(bob.threads.getHistory(id)).rejects.toMatchObject(notFound);
    await expect(bob.threads.delete(id)).rejects.toMatchObject(notFound);
    expect((await bob.threads.search({ limit: 100 })).map((each) => each.thread_id)).not.toContain(id);
    expect(await bob.threads.count()).toBe(1); // his own thread from the test above
    await expect(bob.threads.create({ threadId: id })).rejects.toMatchObject({ status: 409 });
  });

  test('runs: create, stream, wait, resume, fork, list, read, join, cancel, delete', async () => {
    const { thread, run } = mine;
    await expect(bob.runs.create(thread, 'approval', { input: { request: 'x' } })).rejects.toMatchObject(
      notFound,
    );
    await expect(bob.runs.wait(thread, 'approval', { command: { resume: 'yes' } })).rejects.toMatchObject(
      notFound,
    );
    await expect(
      bob.runs.wait(thread, 'approval', {
        input: null,
        checkpointId: mine.checkpoint,
        ifNotExists: 'create',
      }),
    ).rejects.toMatchObject(notFound);
    const stream = bob.runs.stream(thread, 'approval', { command: { resume: 'yes' } });
    await expect(stream.next()).rejects.toMatchObject(notFound);
    await expect(bob.runs.list(thread)).rejects.toMatchObject(notFound);
    await expect(bob.runs.get(thread, run)).rejects.toMatchObject(notFound);
    await expect(bob.runs.join(thread, run)).rejects.toMatchObject(notFound);
    await expect(bob.runs.joinStream(thread, run).next()).rejects.toMatchObject(notFound);
    await expect(bob.runs.cancel(thread, run, true, 'rollback')).rejects.toMatchObject(notFound);
    await expect(bob.runs.delete(thread, run)).rejects.toMatchObject(notFound);
    // Through his own thread's path, or the stateless path, the run is not his either.
    const own = await bob.threads.create();
    await expect(bob.runs.get(own.thread_id, run)).rejects.toMatchObject(notFound);
    await expect(bob.runs.joinStream(null, run).next()).rejects.toMatchObject(notFound);
  });

  test('store items', async () => {
    await expect(bob.store.getItem(['alice', 'notes'], 'n1')).rejects.toMatchObject(forbidden);
    await expect(bob.store.putItem(['alice', 'notes'], 'n1', { text: 'forged' })).rejects.toMatchObject(
      forbidden,
    );
    await expect(bob.store.deleteItem(['alice', 'notes'], 'n1')).rejects.toMatchObject(forbidden);
    await expect(bob.store.searchItems(['alice'])).rejects.toMatchObject(forbidden);
    expect((await bob.store.searchItems([], { limit: 100 })).items).toEqual([]);
    expect((await bob.store.listNamespaces()).namespaces).toEqual([]);
  });

  test("Alice's things are intact after the attacks", async () => {
    expect((await alice.assistants.get(mine.assistant)).name).toBe('alice-approver');
    const thread = await alice.threads.get(mine.thread);
    expect(thread).toMatchObject({ status: 'interrupted', metadata: { secret: 'alice' } });
    expect((await alice.runs.get(mine.thread, mine.run)).status).toBe('success');
    expect((await alice.store.getItem(['alice', 'notes'], 'n1'))?.value).toEqual({ text: 'private' });
    expect(await alice.runs.wait(mine.thread, mine.assistant, { command: { resume: 'yes' } })).toMatchObject({
      decision: 'yes',
      done: true,
    });
  });
});

test('without credentials every route but health, readiness and the OpenAPI document answers 401', async () => {
  const document = (await (await fetch(`${served.url}/openapi.json`)).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  const open = new Set(['/ok', '/health', '/ready']);
  let checked = 0;
  for (const [path, methods] of Object.entries(document.paths)) {
    const url =
      served.url +
      path.replace(/\{[a-z_]+\}/g, (name) =>
        name === '{thread_id}' ? mine.thread : name === '{run_id}' ? mine.run : mine.assistant,
      );
    for (const method of Object.keys(methods)) {
      const hasBody = method !== 'get' && method !== 'delete';
      const response = await fetch(url, {
        method: method.toUpperCase(),
        ...(hasBody ? { body: '{}', headers: { 'content-type': 'application/json' } } : {}),
      });
      expect([path, method, response.status]).toEqual([path, method, open.has(path) ? 200 : 401]);
      checked += 1;
    }
  }
  expect(checked).toBeGreaterThan(40);
  const wrong = await fetch(`${served.url}/threads/${mine.thread}`, {
    headers: { authorization: 'Bearer nope' },
  });
  expect(wrong.status).toBe(401);
});

test("a caller's permissions are enforced", async () => {
  const limited = await startServer({
    graphs: { chat: chatGraph() },
    auth: { authenticate: () => ({ identity: 'reader', permissions: ['threads:read'] }) },
  });
  try {
    await expect(limited.client.threads.create()).rejects.toMatchObject(forbidden);
    expect(await limited.client.threads.search()).toEqual([]);
    await expect(limited.client.store.putItem(['reader'], 'k', { a: 1 })).rejects.toMatchObject(forbidden);
  } finally {
    await limited.served.close();
  }
});
