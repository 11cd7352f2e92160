// A functional-API entrypoint served by the playground: listed with its tasks drawn inside its node,
// run with any input, paused inside a task and resumed over HTTP, its task calls lit as nested nodes.
import { entrypoint, interrupt, task } from '@weft/compose/func';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineApp } from '../../src/server/define-app.ts';
import { type PlaygroundServer, startServer } from '../../src/server/server.ts';
import type { WireEvent } from '../../src/shared/wire.ts';
import { readRun } from './harness.ts';

const calls: string[] = [];
const search = task('search', (topic: string, source: string) => {
  calls.push(`search ${source}`);
  return `${source} on ${topic}`;
});
const review = task('review', (text: string) => interrupt<boolean>({ question: 'Publish?', text }));
const research = entrypoint(
  { name: 'research', tasks: [search, review] },
  async (input: { topic: string }) => {
    const notes = await Promise.all([search(input.topic, 'wiki'), search(input.topic, 'news')]);
    return (await review(notes.join('; '))) ? notes : [];
  },
);

let server: PlaygroundServer;
beforeAll(async () => {
  server = await startServer({
    app: defineApp({ graphs: { research } }),
    port: 0,
    database: ':memory:',
    token: false,
  });
});
afterAll(() => server.close());

// biome-ignore lint/suspicious/noExplicitAny: the test reads answers field by field and asserts on them
async function request(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    headers: { 'content-type': 'application/json' },
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

describe('a functional-API entrypoint in the playground', () => {
  it('is listed as its node with its declared tasks inside, with breakpoints, taking any input', async () => {
    const { body } = await request('GET', '/api/graphs');
    expect(body.problems).toEqual([]);
    const [entry] = body.graphs;
    expect(entry).toMatchObject({ id: 'research', kind: 'graph', breakpoints: true, inputSchema: {} });
    expect(entry.topology.nodes.map((n: { id: string }) => n.id)).toEqual([
      '__start__',
      'research',
      '__end__',
    ]);
    const node = entry.topology.nodes[1];
    expect(node.subgraph.nodes.map((n: { id: string }) => n.id)).toEqual([
      '__start__',
      'search',
      'review',
      '__end__',
    ]);
    expect(node.subgraph.edges).toContainEqual({
      source: '__start__',
      target: 'review',
      kind: 'conditional',
    });
    expect(node.tasks).toBeUndefined();
  });

  it('runs: task calls are events at [entrypoint, task]; a pause in a task resumes without repeating calls', async () => {
    const thread = (await request('POST', '/api/threads', { graphId: 'research' })).body.id as string;
    const started = await request('POST', `/api/threads/${thread}/runs`, { input: { topic: 'owls' } });
    expect(started.status).toBe(202);
    const first = await readRun(`${server.url}/api/runs/${started.body.id}/events`);
    expect(first.end).toMatchObject({ status: 'interrupted' });
    const lit = (events: readonly WireEvent[]) =>
      events
        .filter((e) => e.type === 'node-end')
        .map((e) => (e as unknown as { path: string[] }).path.join(' > '));
    expect(lit(first.events)).toEqual(['research > search', 'research > search']);
    const [pause] = first.end.interrupts as unknown as ReadonlyArray<{ id: string; path: string[] }>;
    expect(pause?.path).toEqual(['research']);
    const resumed = await request('POST', `/api/threads/${thread}/resume`, {
      interruptId: pause?.id,
      value: true,
    });
    expect(resumed.status).toBe(202);
    const second = await readRun(`${server.url}/api/runs/${resumed.body.id}/events`);
    expect(second.end).toMatchObject({ status: 'done' });
    expect(lit(second.events)).toEqual(['research > review', 'research']);
    expect(calls).toEqual(['search wiki', 'search news']);
    const state = (await request('GET', `/api/threads/${thread}/state`)).body;
    expect(state.values).toEqual(['wiki on owls', 'news on owls']);
  });
});
