// The real @langchain/langgraph-sdk client against a Weft server: assistants, threads, every stream
// mode, wait, background runs with join/joinStream, interrupts answered with Command({ resume }).
import type { Client } from '@langchain/langgraph-sdk';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ServedServer } from '../src/index.js';
import { approvalGraph, chatGraph } from './fixtures/graphs.js';
import { startServer } from './fixtures/start.js';

let served: ServedServer;
let client: Client;

beforeAll(async () => {
  ({ served, client } = await startServer({ graphs: { chat: chatGraph(), approval: approvalGraph() } }));
});
afterAll(() => served.close());

const hello = { messages: [{ role: 'user', content: 'hello there', id: 'u1' }] };

async function collect(stream: AsyncIterable<{ event: string; data: unknown; id?: string }>) {
  const events: Array<{ event: string; data: unknown; id?: string }> = [];
  for await (const part of stream) events.push(part);
  return events;
}

describe('assistants', () => {
  test('each graph has a default assistant, reachable by graph id', async () => {
    const assistant = await client.assistants.get('chat');
    expect(assistant).toMatchObject({ graph_id: 'chat', version: 1, name: 'chat' });
    const found = await client.assistants.search({ graphId: 'approval' });
    expect(found.map((each) => each.graph_id)).toEqual(['approval']);
  });

  test('an assistant is versioned: updates make versions, setLatest picks one', async () => {
    const created = await client.assistants.create({
      graphId: 'chat',
      name: 'polite',
      config: { configurable: { tone: 'polite' } },
    });
    const updated = await client.assistants.update(created.assistant_id, {
      config: { configurable: { tone: 'curt' } },
    });
    expect(updated.version).toBe(2);
    const versions = await client.assistants.getVersions(created.assistant_id);
    expect(versions.map((version) => version.version)).toEqual([2, 1]);
    const back = await client.assistants.setLatest(created.assistant_id, 1);
    expect(back.config).toEqual({ configurable: { tone: 'polite' } });
    expect((await client.assistants.get(created.assistant_id)).version).toBe(1);
    const graph = await client.assistants.getGraph(created.assistant_id);
    expect(graph.nodes.map((node) => node.id)).toEqual(expect.arrayContaining(['think', 'reply']));
    await client.assistants.delete(created.assistant_id);
    await expect(client.assistants.get(created.assistant_id)).rejects.toThrow(/404/);
  });
});

describe('threads and runs', () => {
  test('runs.stream yields metadata, then values, updates, custom and message tuples, with SSE ids', async () => {
    const thread = await client.threads.create({ metadata: { user: 'ann' } });
    const events = await collect(
      client.runs.stream(thread.thread_id, 'chat', {
        input: hello,
        streamMode: ['values', 'updates', 'custom', 'messages-tuple'],
      }),
    );
    expect(events[0]).toMatchObject({ event: 'metadata', data: { run_id: expect.any(String) } });
    expect(events.map((event) => Number(event.id))).toEqual(events.map((_, index) => index));
    const names = new Set(events.map((event) => event.event));
    expect([...names]).toEqual(expect.arrayContaining(['values', 'updates', 'custom', 'messages']));
    const updates = events
      .filter((event) => event.event === 'updates')
      .map((event) => Object.keys(event.data as object)[0]);
    expect(updates).toEqual(['think', 'reply']);
    expect(events.find((event) => event.event === 'custom')?.data).toEqual({
      progress: 'thinking',
      about: 'hello there',
    });
    const tokens = events
      .filter((event) => event.event === 'messages')
      .map((event) => event.data as [{ content: string; type: string }, { langgraph_node: string }]);
    expect(tokens.map(([chunk]) => chunk.content).join('')).toBe('You said: hello there ');
    expect(tokens[0]?.[0].type).toBe('AIMessageChunk');
    expect(tokens[0]?.[1].langgraph_node).toBe('reply');
    const last = events.filter((event) => event.event === 'values').at(-1)!.data as {
      messages: Array<{ type: string; content: string }>;
    };
    expect(last.messages.map((message) => [message.type, message.content])).toEqual([
      ['human', 'hello there'],
      ['ai', 'You said: hello there'],
    ]);
    const state = await client.threads.getState(thread.thread_id);
    expect(state.values).toEqual(last);
    expect(state.next).toEqual([]);
    const read = await client.threads.get(thread.thread_id);
    expect(read).toMatchObject({ status: 'idle', metadata: { user: 'ann', graph_id: 'chat' }, values: last });
  });

  test('messages mode sends metadata, partial and complete messages; events and debug stream too', async () => {
    const thread = await client.threads.create();
    const events = await collect(
      client.runs.stream(thread.thread_id, 'chat', {
        input: hello,
        streamMode: ['messages', 'events', 'debug'],
      }),
    );
    const partials = events.filter((event) => event.event === 'messages/partial');
    expect((partials.at(-1)!.data as Array<{ content: string }>)[0]?.content).toBe('You said: hello there ');
    expect(events.some((event) => event.event === 'messages/metadata')).toBe(true);
    const complete = events
      .filter((event) => event.event === 'messages/complete')
      .flatMap((event) => event.data as Array<{ id: string }>);
    expect(complete.map((message) => message.id)).toEqual(['u1', 'ai-1']);
    const chainStarts = events
      .filter(
        (event) => event.event === 'events' && (event.data as { event: string }).event === 'on_chain_start',
      )
      .map((event) => (event.data as { name: string }).name);
    expect(chainStarts).toEqual(expect.arrayContaining(['think', 'reply']));
    const debug = events
      .filter((event) => event.event === 'debug')
      .map((event) => (event.data as { type: string }).type);
    expect(debug).toEqual(expect.arrayContaining(['checkpoint', 'task', 'task_result']));
  });

  test('runs.wait returns the final values; a stateless wait leaves no thread behind', async () => {
    const thread = await client.threads.create();
    const result = (await client.runs.wait(thread.thread_id, 'chat', { input: hello })) as { turns: number };
    expect(result.turns).toBe(1);
    const stateless = (await client.runs.wait(null, 'chat', { input: hello })) as { messages: unknown[] };
    expect(stateless.messages).toHaveLength(2);
    const threads = await client.threads.search({ limit: 100 });
    expect(threads.every((each) => each.thread_id === thread.thread_id || each.metadata?.graph_id)).toBe(
      true,
    );
  });

  test('a background run can be joined, streamed from the start, listed and read', async () => {
    const thread = await client.threads.create();
    const run = await client.runs.create(thread.thread_id, 'chat', {
      input: hello,
      streamMode: ['values', 'updates'],
    });
    expect(run.status).toBe('pending');
    const joined = (await client.runs.join(thread.thread_id, run.run_id)) as { turns: number };
    expect(joined.turns).toBe(1);
    const replay = await collect(client.runs.joinStream(thread.thread_id, run.run_id));
    expect(replay.map((event) => event.event)).toEqual([
      'metadata',
      'values',
      'updates',
      'values',
      'updates',
      'values',
    ]);
    expect((await client.runs.get(thread.thread_id, run.run_id)).status).toBe('success');
    expect((await client.runs.list(thread.thread_id)).map((each) => each.run_id)).toEqual([run.run_id]);
  });

  test('an interrupt pauses the run; Command({ resume }) answers it', async () => {
    const thread = await client.threads.create();
    const paused = (await client.runs.wait(thread.thread_id, 'approval', {
      input: { request: 'refund' },
    })) as {
      __interrupt__: Array<{ id: string; value: { question: string } }>;
    };
    expect(paused.__interrupt__[0]?.value).toEqual({ question: 'approve refund?' });
    const waiting = await client.threads.get(thread.thread_id);
    expect(waiting.status).toBe('interrupted');
    expect(Object.values(waiting.interrupts).flat()[0]).toMatchObject({
      value: { question: 'approve refund?' },
    });
    const state = await client.threads.getState(thread.thread_id);
    expect(state.next).toEqual(['ask']);
    const events = await collect(
      client.runs.stream(thread.thread_id, 'approval', { command: { resume: 'yes' }, streamMode: 'updates' }),
    );
    expect(events.filter((event) => event.event === 'updates').map((event) => event.data)).toEqual([
      { ask: { decision: 'yes' } },
      { finish: { done: true } },
    ]);
    expect((await client.threads.get(thread.thread_id)).status).toBe('idle');
  });

  test('getHistory lists checkpoints; updateState at an older one forks, and a run continues the fork', async () => {
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, 'approval', { input: { request: 'refund' } });
    await client.runs.wait(thread.thread_id, 'approval', { command: { resume: 'no' } });
    const history = await client.threads.getHistory(thread.thread_id, { limit: 20 });
    expect(history[0]?.values).toMatchObject({ decision: 'no', done: true });
    const paused = history.find((state) => state.next.includes('ask') && state.tasks[0]?.interrupts.length);
    expect(paused).toBeDefined();
    const forked = await client.threads.updateState(thread.thread_id, {
      values: { request: 'refund twice' },
      checkpointId: paused?.checkpoint.checkpoint_id ?? '',
      asNode: 'ask',
    });
    expect((forked as unknown as { checkpoint: { checkpoint_id: string } }).checkpoint.checkpoint_id).toEqual(
      expect.any(String),
    );
    const result = (await client.runs.wait(thread.thread_id, 'approval', { input: null })) as Record<
      string,
      unknown
    >;
    expect(result).toMatchObject({ request: 'refund twice', done: true });
    const after = await client.threads.getHistory(thread.thread_id, { limit: 50 });
    expect(after.length).toBeGreaterThan(history.length);
  });

  test('deleting a thread deletes its state and runs', async () => {
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, 'chat', { input: hello });
    await client.threads.delete(thread.thread_id);
    await expect(client.threads.get(thread.thread_id)).rejects.toThrow(/404/);
  });
});
