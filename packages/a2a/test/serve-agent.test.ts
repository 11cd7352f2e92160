import { TaskState } from '@a2a-js/sdk';
import { ChatModelAgent, tool } from '@weft/adk';
import { ScriptedChatModel } from '@weft/adk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type A2aServer, serveA2a } from '../src/index.js';
import { artifactText, asTask, drainStream, sdkClient, sendOf, userText } from './fixtures/clients.js';

let server: A2aServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const lookup = tool({
  name: 'lookup_order',
  description: 'Looks an order up',
  parameters: z.object({ id: z.string() }),
  execute: ({ id }) => ({ id, status: 'shipped' }),
});

function deskAgent(
  model = new ScriptedChatModel([
    { toolCalls: [{ name: 'lookup_order', arguments: { id: 'A1' } }] },
    'Order A1 has shipped.',
  ]),
) {
  return new ChatModelAgent({ name: 'desk', description: 'Answers order questions', model, tools: [lookup] });
}

describe('a Weft agent served over A2A, called by the SDK client', () => {
  it('serves its card with skills from its description and tools, streaming and push notifications', async () => {
    server = await serveA2a({ agent: deskAgent(), port: 0 });
    const client = await sdkClient(server.url);
    const card = await client.getAgentCard();
    expect(card.name).toBe('desk');
    expect(card.capabilities?.streaming).toBe(true);
    expect(card.capabilities?.pushNotifications).toBe(true);
    expect(card.skills.map((s) => [s.id, s.name])).toEqual([
      ['desk', 'model'],
      ['desk-lookup_order', 'lookup_order'],
    ]);
    expect(card.supportedInterfaces.map((i) => [i.url, i.protocolVersion])).toEqual([
      [server.url, '1.0'],
      [server.url, '0.3'],
    ]);
  });

  it('answers SendMessage with a completed task whose artifact is the reply', async () => {
    server = await serveA2a({ agent: deskAgent(), port: 0 });
    const client = await sdkClient(server.url);
    const task = asTask(await client.sendMessage(sendOf(userText('Where is order A1?'))));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactText(task)).toBe('Order A1 has shipped.');
    const fetched = await client.getTask({ tenant: '', id: task.id, historyLength: undefined });
    expect(fetched.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    // The tool call and its result were reported as working steps of the task.
    const kinds = fetched.history.map(
      (m) => (m.metadata?.weft as { kind?: string } | undefined)?.kind ?? 'user',
    );
    expect(kinds).toEqual(['user', 'tool-calls', 'tool-result']);
  });

  it('streams a task: submitted, working, tool steps, the reply as it is written, completed', async () => {
    server = await serveA2a({ agent: deskAgent(), port: 0 });
    const client = await sdkClient(server.url);
    const events = await drainStream(client.sendMessageStream(sendOf(userText('Where is order A1?'))));
    const kinds = events.map((e) => e.payload?.$case);
    expect(kinds[0]).toBe('task');
    const first = events[0]?.payload;
    expect(first?.$case === 'task' && first.value.status?.state).toBe(TaskState.TASK_STATE_SUBMITTED);
    const states = events.flatMap((e) =>
      e.payload?.$case === 'statusUpdate' ? [e.payload.value.status?.state] : [],
    );
    expect(states[0]).toBe(TaskState.TASK_STATE_WORKING);
    expect(states.at(-1)).toBe(TaskState.TASK_STATE_COMPLETED);
    const chunks = events.flatMap((e) =>
      e.payload?.$case === 'artifactUpdate' && !e.payload.value.lastChunk ? [e.payload.value] : [],
    );
    // The reply streamed word by word, appended to one artifact, then replaced whole.
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.slice(1).every((c) => c.append)).toBe(true);
    const last = events
      .flatMap((e) => (e.payload?.$case === 'artifactUpdate' ? [e.payload.value] : []))
      .at(-1);
    expect(last?.lastChunk).toBe(true);
    expect(last?.artifact?.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : ''))).toEqual([
      'Order A1 has shipped.',
    ]);
  });
});
