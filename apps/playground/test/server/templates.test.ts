import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

/** Runs one message on a demo agent; returns its events, its end and the `author: role` of its agent events. */
async function chat(agentId: string, message: string) {
  const thread = await h.thread(agentId);
  const { events, end } = await h.finished((await h.start(thread, { message })).id);
  const said = events
    .flatMap((e) => (e.type === 'agent' ? [e.event as { author: string; message?: unknown }] : []))
    .filter((e) => e.message)
    .map((e) => {
      const m = e.message as { role: string; toolCalls?: Array<{ name: string }> };
      return `${e.author}: ${m.toolCalls?.length ? m.toolCalls.map((c) => c.name).join(',') : m.role}`;
    });
  return { events, end, said };
}

describe('the prebuilt templates in the demo', () => {
  it('lists the supervisor, plan-execute and host agents with their graphs', async () => {
    const graphs = (await h.request('GET', '/api/graphs')).body.graphs as Array<{ id: string; kind: string }>;
    const agents = graphs.filter((g) => g.kind === 'agent').map((g) => g.id);
    expect(agents).toEqual(expect.arrayContaining(['supervisor', 'plan-execute', 'host']));
    const team = (await h.request('GET', '/api/graphs/supervisor')).body;
    expect(team.topology.nodes.map((n: { id: string }) => n.id)).toEqual([
      '__start__',
      'enter',
      'supervisor',
      'researcher',
      'writer',
      '__end__',
    ]);
  });

  it('runs the supervisor team: hand-offs to each worker and back, then the answer', async () => {
    const { events, end, said } = await chat('supervisor', 'Tell me about graphs');
    expect(end).toMatchObject({ status: 'done' });
    expect(said).toEqual([
      'supervisor: transfer_to_agent',
      'supervisor: tool',
      'researcher: lookup',
      'researcher: tool',
      'researcher: assistant',
      'supervisor: transfer_to_agent',
      'supervisor: tool',
      'writer: assistant',
      'supervisor: assistant',
    ]);
    const started = events.filter((e) => e.type === 'node-start').map((e) => (e.path as string[]).join('/'));
    expect(started).toContain('researcher/researcher/model');
    // Every member's model calls reach the inspector, from compose's event stream.
    const callers = events.filter((e) => e.type === 'model-call').map((e) => e.agent);
    expect(new Set(callers)).toEqual(new Set(['supervisor', 'researcher', 'writer']));
  });

  it('runs the plan-execute agent to its answer', async () => {
    const { end, said } = await chat('plan-execute', 'How does Weft run agents?');
    expect(end).toMatchObject({ status: 'done' });
    expect(said).toEqual([
      'planner: plan',
      'planner: tool',
      'executor: search',
      'executor: tool',
      'executor: assistant',
      'replanner: plan',
      'replanner: tool',
      'executor: assistant',
      'replanner: respond',
      'replanner: tool',
      'plan_execute: assistant',
    ]);
  });

  it('runs the host agent with two specialists in parallel and a merged answer', async () => {
    const { end, said } = await chat('host', 'Weather and news please');
    expect(end).toMatchObject({ status: 'done' });
    expect(said.filter((s) => s.startsWith('host:'))).toEqual([
      'host: weather,news',
      'host: tool',
      'host: tool',
      'host: assistant',
    ]);
    expect(said).toEqual(expect.arrayContaining(['weather: weather_lookup', 'news: news_lookup']));
  });
});
