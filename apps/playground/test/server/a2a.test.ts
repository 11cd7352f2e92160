// Issue #46 (3): `weft dev` serves every agent and graph of the app over A2A under /a2a/<id>/, behind
// the playground's own guard, and lists a remote A2A agent's node as such in the topology.
import { TaskState } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import { RemoteA2aAgent } from '@weft/a2a';
import { ChatModelAgent } from '@weft/adk';
import { ScriptedChatModel } from '@weft/adk/testing';
import { END, START, StateGraph } from '@weft/compose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineApp } from '../../src/server/define-app.ts';
import { type PlaygroundServer, startServer } from '../../src/server/server.ts';

let server: PlaygroundServer;

beforeAll(async () => {
  const desk = new ChatModelAgent({
    name: 'desk',
    description: 'Answers questions',
    model: new ScriptedChatModel(['Hello over A2A.']),
  });
  const double = new StateGraph(z.object({ n: z.number() }))
    .addNode('double', (s) => ({ n: s.n * 2 }))
    .addEdge(START, 'double')
    .addEdge('double', END)
    .compile({ name: 'double' });
  const researcher = new RemoteA2aAgent({
    name: 'researcher',
    description: 'Finds sources',
    url: 'http://127.0.0.1:9/',
  });
  const triage = new ChatModelAgent({
    name: 'triage',
    model: new ScriptedChatModel(['Hi']),
    subAgents: [researcher],
  });
  server = await startServer({
    app: defineApp({ agents: [desk, triage], graphs: { double } }),
    port: 0,
    database: ':memory:',
    webDir: '/nonexistent',
    token: false,
  });
});
afterAll(() => server.close());

const message = (text: string, data?: unknown) => ({
  tenant: '',
  message: {
    messageId: crypto.randomUUID(),
    contextId: '',
    taskId: '',
    role: 1,
    parts: [
      data === undefined
        ? {
            content: { $case: 'text' as const, value: text },
            mediaType: 'text/plain',
            filename: '',
            metadata: {},
          }
        : {
            content: { $case: 'data' as const, value: data },
            mediaType: 'application/json',
            filename: '',
            metadata: {},
          },
    ],
    metadata: {},
    extensions: [],
    referenceTaskIds: [],
  },
  configuration: undefined,
  metadata: {},
});

describe('agents and graphs over A2A in weft dev', () => {
  it('serves an agent’s card and tasks under /a2a/<id>/', async () => {
    const client = await new ClientFactory().createFromUrl(`${server.url}/a2a/desk/`);
    const card = await client.getAgentCard();
    expect(card.name).toBe('desk');
    expect(card.supportedInterfaces[0]?.url).toBe(`${server.url}/a2a/desk/`);
    const task = await client.sendMessage(message('Hi'));
    expect('status' in task && task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('serves a graph: a data part in, its output out', async () => {
    const client = await new ClientFactory().createFromUrl(`${server.url}/a2a/double/`);
    const task = await client.sendMessage(message('', { n: 21 }));
    const part = 'status' in task ? task.artifacts[0]?.parts[0]?.content : undefined;
    expect(part).toEqual({ $case: 'data', value: { n: 42 } });
  });

  it('keeps the playground’s guard in front: foreign origins and non-JSON writes are refused', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } });
    const foreign = await fetch(`${server.url}/a2a/desk/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body,
    });
    expect(foreign.status).toBe(403);
    const form = await fetch(`${server.url}/a2a/desk/`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body,
    });
    expect(form.status).toBe(415);
    const unknown = await fetch(`${server.url}/a2a/nobody/.well-known/agent-card.json`);
    expect(unknown.status).toBe(404);
  });

  it('marks a remote A2A agent in the topology it lists', async () => {
    const graphs = (await (await fetch(`${server.url}/api/graphs`)).json()) as {
      graphs: Array<{
        id: string;
        topology: {
          nodes: Array<{ id: string; subgraph?: { nodes: Array<{ id: string; metadata?: unknown }> } }>;
        };
      }>;
    };
    const triage = graphs.graphs.find((g) => g.id === 'triage');
    const member = triage?.topology.nodes.find((n) => n.id === 'researcher');
    expect(member?.subgraph?.nodes.find((n) => n.id === 'remote')?.metadata).toEqual({
      remoteA2a: { url: 'http://127.0.0.1:9/', agent: 'researcher' },
    });
  });
});
