import { ChatModelAgent, type Message, messageText, tool } from '@weft/adk';
import { ScriptedChatModel } from '@weft/adk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineApp } from '../../src/server/define-app.ts';
import { startServer } from '../../src/server/server.ts';
import type { SnapshotInfo } from '../../src/shared/wire.ts';
import { type Harness, readRun } from './harness.ts';

/** Counts visits in the session, for the user and for the app; `temp:` lives for one turn only. */
const visit = tool({
  name: 'visit',
  description: 'Counts a visit',
  parameters: z.object({ note: z.string() }),
  async execute({ note }, context) {
    const count = (key: string) => Number(context.state.get(key) ?? 0) + 1;
    const visits = { session: count('visits'), user: count('user:visits'), app: count('app:visits') };
    context.state.set('visits', visits.session);
    context.state.set('user:visits', visits.user);
    context.state.set('app:visits', visits.app);
    context.state.set('temp:note', note);
    return `visits ${visits.session}/${visits.user}/${visits.app}`;
  },
});

function answer(messages: readonly Message[]) {
  const last = messages.at(-1);
  if (last?.role === 'tool') return `Counted: ${messageText(last)}`;
  return { toolCalls: [{ name: 'visit', arguments: { note: last ? messageText(last) : '' } }] };
}

const counter = new ChatModelAgent({
  name: 'counter',
  instruction: 'Count visits.',
  model: new ScriptedChatModel(answer, { name: 'scripted-counter' }),
  tools: [visit],
});

let h: Pick<Harness, 'request' | 'thread'> & {
  close(): Promise<void>;
  say(t: string, m: string): Promise<void>;
};
beforeAll(async () => {
  const server = await startServer({
    app: defineApp({ agents: [counter] }),
    port: 0,
    database: ':memory:',
    token: false,
  });
  const request = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      headers: { 'content-type': 'application/json' },
    });
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
  };
  const finish = async (runId: string) => {
    const { end } = await readRun(`${server.url}/api/runs/${runId}/events`);
    expect(end).toMatchObject({ status: 'done' });
  };
  h = {
    request,
    thread: async (graphId) => (await request('POST', '/api/threads', { graphId })).body.id as string,
    say: async (thread, message) => {
      const run = await request('POST', `/api/threads/${thread}/runs`, { input: { message } });
      expect(run.status).toBe(202);
      await finish(run.body.id);
    },
    close: () => server.close(),
  };
  Object.assign(h, { finish });
});
afterAll(() => h.close());

type Event = { id: string; author: string; checkpointId?: string; turnComplete?: boolean; message?: unknown };

describe('agent runs go through the Runner', () => {
  it('commits every event to the thread session; user: and app: state reach the next thread, temp: does not stay', async () => {
    const first = await h.thread('counter');
    await h.say(first, 'one');
    await h.say(first, 'two');
    const session = (await h.request('GET', `/api/threads/${first}/session`)).body;
    expect(session.sessionId).toBe(first);
    const events: Event[] = session.events;
    expect(events.map((e) => e.author)).toEqual([
      ...['user', 'counter', 'counter', 'counter', 'counter'],
      ...['user', 'counter', 'counter', 'counter', 'counter'],
    ]);
    expect(events.filter((e) => e.turnComplete)).toHaveLength(2);
    // Each event records where it was committed, on the thread's checkpoint tree.
    const history: SnapshotInfo[] = (await h.request('GET', `/api/threads/${first}/history`)).body;
    const ids = new Set(history.map((s) => s.checkpointId));
    for (const event of events.slice(1)) expect(ids.has(event.checkpointId ?? '')).toBe(true);
    expect(session.state).toEqual({ visits: 2, 'user:visits': 2, 'app:visits': 2 });

    const second = await h.thread('counter');
    await h.say(second, 'three');
    const next = (await h.request('GET', `/api/threads/${second}/session`)).body;
    expect(next.state).toEqual({ visits: 1, 'user:visits': 3, 'app:visits': 3 });
  });

  it('a re-run from an older checkpoint is a new session branch with only the events before it; the parent stays', async () => {
    const thread = await h.thread('counter');
    await h.say(thread, 'one');
    await h.say(thread, 'two');
    const parent = (await h.request('GET', `/api/threads/${thread}/session`)).body;
    const history: SnapshotInfo[] = (await h.request('GET', `/api/threads/${thread}/history`)).body;
    // Newest first: the input checkpoint of the second turn.
    const turn2 = history.find((s) => s.source === 'input')!;
    const fork = await h.request('POST', `/api/threads/${thread}/fork`, { checkpointId: turn2.checkpointId });
    expect(fork.status).toBe(202);
    await (h as unknown as { finish(id: string): Promise<void> }).finish(fork.body.id);

    const branch = (await h.request('GET', `/api/threads/${thread}/session`)).body;
    expect(branch.sessionId).toBe(`${thread}~1`);
    expect(branch.branches).toMatchObject([
      { sessionId: thread },
      { sessionId: `${thread}~1`, parent: thread, forkedFrom: turn2.checkpointId },
    ]);
    const before: Event[] = parent.events.slice(0, 6); // turn 1 and the second message
    const copied = (branch.events as Event[]).filter((e) => e.id.endsWith(`~${thread}~1`));
    expect(copied.map((e) => e.id)).toEqual(before.map((e) => `${e.id}~${thread}~1`));
    expect(copied.at(-1)?.author).toBe('user');
    // The re-run committed the second turn again on the branch, on the replayed state.
    expect(branch.events).toHaveLength(10);
    expect(branch.state).toMatchObject({ visits: 2 });

    const unchanged = (await h.request('GET', `/api/threads/${thread}/session?sessionId=${thread}`)).body;
    expect(unchanged.sessionId).toBe(thread);
    expect(unchanged.events).toEqual(parent.events);
    // Session keys stay; user: and app: keys are shared, so the re-run's visit counts there.
    expect(unchanged.state).toEqual({
      ...parent.state,
      'user:visits': parent.state['user:visits'] + 1,
      'app:visits': parent.state['app:visits'] + 1,
    });
    const stranger = await h.request('GET', `/api/threads/${thread}/session?sessionId=elsewhere`);
    expect(stranger.status).toBe(404);

    expect((await h.request('DELETE', `/api/threads/${thread}`)).status).toBe(200);
  });
});
