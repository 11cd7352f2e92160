import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('threads', () => {
  it('creates, lists (per graph, newest first) and deletes threads with their checkpoints', async () => {
    const a = await h.request('POST', '/api/threads', { graphId: 'counter-loop', title: 'first' });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ graphId: 'counter-loop', title: 'first', status: 'idle' });
    const b = await h.thread('counter-loop');
    await h.thread('map-reduce');
    const listed = (await h.request('GET', '/api/threads?graphId=counter-loop')).body;
    expect(listed.map((t: { id: string }) => t.id)).toEqual([b, a.body.id]);
    await h.events((await h.start(b, { target: 1, delayMs: 1 })).id);
    expect((await h.request('GET', `/api/threads/${b}`)).body.runs).toHaveLength(1);
    expect((await h.request('DELETE', `/api/threads/${b}`)).status).toBe(200);
    expect((await h.request('GET', `/api/threads/${b}`)).status).toBe(404);
    const fresh = await h.request('GET', '/api/threads?graphId=counter-loop');
    expect(fresh.body.map((t: { id: string }) => t.id)).toEqual([a.body.id]);
  });
});

describe('agents', () => {
  it('streams tokens, reports model calls with request and response, and runs tools', async () => {
    const thread = await h.thread('assistant');
    const run = await h.start(thread, { message: 'What is the weather in Lyon?' });
    const { events, end } = await h.finished(run.id);
    expect(end).toMatchObject({ status: 'done' });
    const text = events
      .map((e) => (e.type === 'chunk' && e.agent === 'assistant' ? (e.chunk as { text?: string }).text : ''))
      .map((text) => text ?? '')
      .join('');
    expect(text).toContain('Sunny and 21 °C in Lyon');
    const calls = events.filter((e) => e.type === 'model-call');
    expect(calls).toHaveLength(2);
    const first = calls[0] as unknown as {
      request: { messages: Array<{ role: string; content: string }> };
      response: { toolCalls: unknown[] };
    };
    expect(first.request.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(first.response.toolCalls).toEqual([
      expect.objectContaining({ name: 'get_weather', arguments: '{"city":"Lyon"}' }),
    ]);
    expect(events.filter((e) => e.type === 'node-start').map((e) => e.node)).toEqual([
      'init',
      'model',
      'cancelAfterModel',
      'tools',
      'cancelAfterTools',
      'model',
      'afterAgent',
    ]);
  });

  it('pauses for a tool approval and goes on after a rejection', async () => {
    const thread = await h.thread('assistant');
    const { end: status } = await h.finished((await h.start(thread, { message: 'Please book a table' })).id);
    expect(status).toMatchObject({ status: 'interrupted' });
    const [interrupt] = status.interrupts as unknown as ReadonlyArray<{
      id: string;
      value: { type: string; calls: Array<{ id: string; name: string }> };
    }>;
    expect(interrupt!.value.type).toBe('tool-approval');
    expect(interrupt!.value.calls[0]!.name).toBe('book_table');
    const callId = interrupt!.value.calls[0]!.id;
    const resumed = await h.request('POST', `/api/threads/${thread}/resume`, {
      interruptId: interrupt!.id,
      value: { [callId]: { approved: false, reason: 'too late tonight' } },
    });
    expect((await h.finished(resumed.body.id)).end).toMatchObject({ status: 'done' });
    const state = (await h.request('GET', `/api/threads/${thread}/state`)).body;
    const last = state.values.messages.at(-1);
    expect(last.content).toContain('did not book');
  });
});
