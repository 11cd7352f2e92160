import { TaskState } from '@a2a-js/sdk';
import { Client } from '@a2a-js/sdk/client';
import { LegacyJsonRpcTransport, parseLegacyAgentCard } from '@a2a-js/sdk/compat/v0_3/client';
import { ChatModelAgent, tool } from '@weft/adk';
import { ScriptedChatModel } from '@weft/adk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type A2aServer, serveA2a } from '../src/index.js';
import { artifactText, asTask, drainStream, sendOf, userText } from './fixtures/clients.js';

let server: A2aServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function approvalAgent() {
  const send = tool({
    name: 'send_invoice',
    description: 'Sends an invoice',
    parameters: z.object({ to: z.string() }),
    needsApproval: true,
    execute: ({ to }) => `sent to ${to}`,
  });
  const model = new ScriptedChatModel([
    { toolCalls: [{ name: 'send_invoice', arguments: { to: 'ada@example.com' } }] },
    'Invoice sent.',
    'Hello from 0.3.',
  ]);
  return new ChatModelAgent({ name: 'billing', description: 'Sends invoices', model, tools: [send] });
}

/** A task as protocol 0.3 spells it. */
interface LegacyTask {
  readonly kind: string;
  readonly id: string;
  readonly contextId: string;
  readonly status: { readonly state: string };
  readonly artifacts: ReadonlyArray<{ readonly parts: readonly unknown[] }>;
}

async function rpc(url: string, method: string, params: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' }, // no A2A-Version header: protocol 0.3
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await response.json()) as Record<string, unknown>;
}

describe('protocol 0.3 clients (the SDK compatibility layer)', () => {
  it('serves a 0.3 card to a request without A2A-Version, and a 1.0 card with it', async () => {
    server = await serveA2a({ agent: approvalAgent(), port: 0 });
    const legacy = (await (await fetch(server.cardUrl)).json()) as Record<string, unknown>;
    expect(legacy).toMatchObject({ protocolVersion: '0.3', url: server.url, preferredTransport: 'JSONRPC' });
    expect((legacy.capabilities as Record<string, unknown>).streaming).toBe(true);
    const { supportedInterfaces: _, ...pure } = legacy; // as a client that only knows 0.3 reads it
    const parsed = parseLegacyAgentCard(pure);
    expect(parsed.supportedInterfaces.map((i) => [i.url, i.protocolVersion])).toEqual([[server.url, '0.3']]);
    const modern = (await (
      await fetch(server.cardUrl, { headers: { 'A2A-Version': '1.0' } })
    ).json()) as Record<string, unknown>;
    expect(modern.url).toBeUndefined();
    expect(modern.supportedInterfaces).toHaveLength(2);
  });

  it('answers message/send with 0.3 task states (input-required, then completed) and tasks/get', async () => {
    server = await serveA2a({ agent: approvalAgent(), port: 0 });
    const message = {
      kind: 'message',
      messageId: 'm1',
      role: 'user',
      parts: [{ kind: 'text', text: 'Invoice Ada' }],
    };
    const asked = (await rpc(server.url, 'message/send', { message })).result as LegacyTask;
    expect(asked.kind).toBe('task');
    expect(asked.status.state).toBe('input-required');
    const answer = {
      ...message,
      messageId: 'm2',
      taskId: asked.id,
      contextId: asked.contextId,
      parts: [{ kind: 'text', text: 'yes' }],
    };
    const done = (await rpc(server.url, 'message/send', { message: answer })).result as LegacyTask;
    expect(done.status.state).toBe('completed');
    expect(done.artifacts[0]?.parts[0]).toMatchObject({ kind: 'text', text: 'Invoice sent.' });
    const got = (await rpc(server.url, 'tasks/get', { id: asked.id })).result as LegacyTask;
    expect(got.status.state).toBe('completed');
    const unknown = await rpc(server.url, 'tasks/get', { id: 'no-such-task' });
    expect((unknown.error as { code: number }).code).toBe(-32001);
  });

  it('streams with message/stream, resubscribes with tasks/resubscribe and cancels with tasks/cancel through the SDK 0.3 transport', async () => {
    server = await serveA2a({ agent: approvalAgent(), port: 0 });
    const card = parseLegacyAgentCard({
      ...((await (await fetch(server.cardUrl)).json()) as object),
      supportedInterfaces: undefined,
    });
    const client = new Client(new LegacyJsonRpcTransport({ endpoint: server.url }), card);
    const events = await drainStream(client.sendMessageStream(sendOf(userText('Invoice Ada'))));
    const states = events.flatMap((e) =>
      e.payload?.$case === 'statusUpdate' ? [e.payload.value.status?.state] : [],
    );
    expect(states.at(-1)).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const first = events[0]?.payload;
    const taskId = first?.$case === 'task' ? first.value.id : '';
    // tasks/resubscribe: the task as it stands first (it waits for input, so the stream stays open).
    const again = client.resubscribeTask({ tenant: '', id: taskId });
    const snapshot = (await again.next()).value?.payload;
    await again.return(undefined);
    expect(snapshot?.$case === 'task' && snapshot.value.status?.state).toBe(
      TaskState.TASK_STATE_INPUT_REQUIRED,
    );
    const cancelled = await client.cancelTask({ tenant: '', id: taskId, metadata: {} });
    expect(cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    const next = asTask(await client.sendMessage(sendOf(userText('Say hello'))));
    expect(artifactText(next)).toBe('Invoice sent.');
  });
});
