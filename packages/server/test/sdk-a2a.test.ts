// The graphs a @weft/server serves, over A2A too: the official `@a2a-js/sdk` client against a running
// server — card, send, stream, an input-required round trip, cancel — behind the server's own front
// door: its auth hook (each identity's tasks its own), Host/Origin checks and body cap; tasks kept in the
// server's store, so a restarted server answers and continues them.
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TaskState } from '@a2a-js/sdk';
import { Client } from '@langchain/langgraph-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServedServer } from '../src/index.js';
import { a2aClient, asTask, drain, message, send } from './fixtures/a2a-client.js';
import { approvalGraph, chatGraph, Gate, slowGraph } from './fixtures/graphs.js';
import { startServer } from './fixtures/start.js';
import { tokens, twoUsers } from './fixtures/two-users.js';

describe('graphs served over A2A, with the auth hook', () => {
  let served: ServedServer;
  const gate = new Gate();
  const agentUrl = (graph: string) => `${served.url}/a2a/${graph}/`;

  beforeAll(async () => {
    ({ served } = await startServer({
      graphs: { chat: chatGraph(), approval: approvalGraph(), slow: slowGraph(() => gate) },
      auth: twoUsers,
      guard: { maxBodyBytes: 4096 },
      a2a: { cards: { approval: { description: 'Approves requests after asking' } } },
    }));
  });
  afterAll(async () => {
    gate.open();
    await served.close();
  });

  it('publishes each graph’s card, at its graph id and its default assistant’s id, declaring bearer auth', async () => {
    const response = await fetch(`${agentUrl('approval')}.well-known/agent-card.json`, {
      headers: { 'a2a-version': '1.0' },
    });
    expect(response.status).toBe(200);
    const card = (await response.json()) as {
      name: string;
      description: string;
      supportedInterfaces: Array<{ url: string }>;
      securitySchemes: Record<string, unknown>;
    };
    expect(card.name).toBe('approval');
    expect(card.description).toBe('Approves requests after asking');
    expect(card.supportedInterfaces[0]?.url).toBe(agentUrl('approval'));
    expect(Object.keys(card.securitySchemes)).toEqual(['bearer']);
    const assistants = new Client({
      apiUrl: served.url,
      defaultHeaders: { authorization: `Bearer ${tokens.alice}` },
      callerOptions: { maxRetries: 0 },
    }).assistants;
    const [assistant] = await assistants.search({ graphId: 'approval' });
    const viaAssistant = await a2aClient(`${served.url}/a2a/${assistant?.assistant_id}/`, tokens.alice);
    expect((await viaAssistant.getAgentCard()).name).toBe('approval');
  });

  it('answers a message with the graph’s output', async () => {
    const client = await a2aClient(agentUrl('chat'), tokens.alice);
    const task = asTask(
      await client.sendMessage(send(message({ data: { messages: [{ role: 'user', content: 'hello' }] } }))),
    );
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const output = task.artifacts.at(-1)?.parts[0]?.content;
    expect(output?.$case === 'data' && output.value).toMatchObject({
      messages: [
        { role: 'user', content: 'hello' },
        { role: 'assistant', content: 'You said: hello' },
      ],
      turns: 1,
    });
  });

  it('streams a task: submitted, working, progress, the reply as it is written, completed', async () => {
    const client = await a2aClient(agentUrl('chat'), tokens.alice);
    const input = { messages: [{ role: 'user', content: 'stream me' }] };
    const events = await drain(client.sendMessageStream(send(message({ data: input }))));
    const first = events[0]?.payload;
    expect(first?.$case === 'task' && first.value.status?.state).toBe(TaskState.TASK_STATE_SUBMITTED);
    const states = events.flatMap((e) =>
      e.payload?.$case === 'statusUpdate' ? [e.payload.value.status?.state] : [],
    );
    expect(states[0]).toBe(TaskState.TASK_STATE_WORKING);
    expect(states.at(-1)).toBe(TaskState.TASK_STATE_COMPLETED);
    const progress = events.flatMap((e) =>
      e.payload?.$case === 'statusUpdate'
        ? (e.payload.value.status?.message?.parts ?? []).map((p) => p.content)
        : [],
    );
    expect(progress).toContainEqual({ $case: 'data', value: { progress: 'thinking', about: 'stream me' } });
    const written = events
      .flatMap((e) =>
        e.payload?.$case === 'artifactUpdate' && !e.payload.value.lastChunk ? [e.payload.value] : [],
      )
      .flatMap((update) => update.artifact?.parts ?? [])
      .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
      .join('');
    expect(written).toBe('You said: stream me ');
  });

  it('pauses as input-required and goes on with the answer', async () => {
    const client = await a2aClient(agentUrl('approval'), tokens.alice);
    const asked = asTask(await client.sendMessage(send(message({ data: { request: 'refund A1' } }))));
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(asked.status?.message?.parts[0]?.content).toEqual({ $case: 'text', value: 'approve refund A1?' });
    const done = asTask(await client.sendMessage(send(message({ text: 'approved', taskId: asked.id }))));
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const output = done.artifacts.at(-1)?.parts[0]?.content;
    expect(output?.$case === 'data' && output.value).toEqual({
      request: 'refund A1',
      decision: 'approved',
      done: true,
    });
  });

  it('cancels a running task: its run stops and the task ends canceled', async () => {
    const client = await a2aClient(agentUrl('slow'), tokens.alice);
    const started = asTask(await client.sendMessage(send(message({ data: { log: [] } }), true)));
    await gate.arrived();
    const cancelled = await client.cancelTask({ tenant: '', id: started.id, metadata: {} });
    expect(cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    const after = await client.getTask({ tenant: '', id: started.id, historyLength: undefined });
    expect(after.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it('keeps each identity’s tasks its own: another user’s task is not found', async () => {
    const alice = await a2aClient(agentUrl('approval'), tokens.alice);
    const bob = await a2aClient(agentUrl('approval'), tokens.bob);
    const asked = asTask(await alice.sendMessage(send(message({ data: { request: 'alice only' } }))));
    await expect(bob.getTask({ tenant: '', id: asked.id, historyLength: undefined })).rejects.toThrow(
      /not found/i,
    );
    await expect(bob.cancelTask({ tenant: '', id: asked.id, metadata: {} })).rejects.toThrow(/not found/i);
    await expect(bob.sendMessage(send(message({ text: 'yes', taskId: asked.id })))).rejects.toThrow(
      /not found/i,
    );
    const listed = await bob.listTasks({
      tenant: '',
      contextId: '',
      status: TaskState.TASK_STATE_UNSPECIFIED,
      pageSize: 100,
      pageToken: '',
      historyLength: 0,
      statusTimestampAfter: undefined,
      includeArtifacts: false,
    });
    expect(listed.tasks.map((t) => t.id)).not.toContain(asked.id);
    const mine = await alice.getTask({ tenant: '', id: asked.id, historyLength: undefined });
    expect(mine.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
  });

  /** The status of an agent-card request with a `Host` header of our choosing (fetch sets its own). */
  const statusWithHost = (host: string) =>
    new Promise<number | undefined>((resolve, reject) => {
      const url = new URL(`${agentUrl('approval')}.well-known/agent-card.json`);
      request({ host: url.hostname, port: url.port, path: url.pathname, headers: { host } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      })
        .on('error', reject)
        .end();
    });

  it('refuses callers without valid credentials, foreign Hosts and Origins, and oversized bodies', async () => {
    const rpc = (
      headers: Record<string, string>,
      body = '{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"x"}}',
    ) =>
      fetch(agentUrl('approval'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...headers },
        body,
      });
    expect((await rpc({})).status).toBe(401);
    expect((await rpc({ authorization: 'Bearer not-a-user-token' })).status).toBe(401);
    const alice = { authorization: `Bearer ${tokens.alice}` };
    expect((await rpc({ ...alice, origin: 'https://evil.example' })).status).toBe(403);
    expect((await rpc({ ...alice, 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await rpc(alice, JSON.stringify({ pad: 'x'.repeat(5000) }))).status).toBe(413);
    expect((await rpc(alice)).status).toBe(200); // the JSON-RPC error (task not found) rides a 200
    expect(await statusWithHost('evil.example')).toBe(403); // DNS rebinding
    expect(await statusWithHost(new URL(served.url).host)).toBe(200);
  });
});

describe('A2A tasks in the server’s store', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'weft-server-a2a-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('survive a restart: a waiting task is answered and a running one continued by the next server', async () => {
    const database = join(dir, 'server.db');
    const firstGate = new Gate();
    const graphs = (gate: Gate) => ({ approval: approvalGraph(), slow: slowGraph(() => gate) });
    const first = await startServer({ graphs: graphs(firstGate), database });
    const approvals = await a2aClient(`${first.served.url}/a2a/approval/`);
    const waiting = asTask(await approvals.sendMessage(send(message({ data: { request: 'restart' } }))));
    const slow = await a2aClient(`${first.served.url}/a2a/slow/`);
    const running = asTask(await slow.sendMessage(send(message({ data: { log: [] } }), true)));
    await firstGate.arrived();
    await first.served.close({ drainMs: 0 });

    const secondGate = new Gate();
    const second = await startServer({ graphs: graphs(secondGate), database });
    try {
      await secondGate.arrived(); // `serve` continued the running task from its last checkpoint
      const slowAgain = await a2aClient(`${second.served.url}/a2a/slow/`);
      const followed = slowAgain.resubscribeTask({ tenant: '', id: running.id });
      const firstEvent = await followed.next();
      expect(firstEvent.done).toBe(false);
      secondGate.open();
      const rest = await drain({ [Symbol.asyncIterator]: () => followed });
      const states = rest.flatMap((e) =>
        e.payload?.$case === 'statusUpdate' ? [e.payload.value.status?.state] : [],
      );
      expect(states.at(-1)).toBe(TaskState.TASK_STATE_COMPLETED);

      const approvalsAgain = await a2aClient(`${second.served.url}/a2a/approval/`);
      const done = asTask(
        await approvalsAgain.sendMessage(send(message({ text: 'yes', taskId: waiting.id }))),
      );
      expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);

      // The task records are the server's own: the Store API does not reach them.
      const { namespaces } = await second.client.store.listNamespaces();
      expect(namespaces.flat()).not.toContain('a2a');
      expect(namespaces.flat()).not.toContain('weft-server');
      expect(await second.client.store.searchItems(['a2a'])).toEqual({ items: [] });
    } finally {
      secondGate.open();
      await second.served.close();
    }
  });

  it('is not served with `a2a: false`', async () => {
    const { served } = await startServer({ graphs: { approval: approvalGraph() }, a2a: false });
    try {
      const response = await fetch(`${served.url}/a2a/approval/.well-known/agent-card.json`);
      expect(response.status).toBe(404);
    } finally {
      await served.close();
    }
  });
});
