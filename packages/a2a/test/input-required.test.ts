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

function refundAgent() {
  const refunds: string[] = [];
  const refund = tool({
    name: 'refund',
    description: 'Refunds an order',
    parameters: z.object({ order: z.string() }),
    needsApproval: true,
    execute: ({ order }) => {
      refunds.push(order);
      return `refunded ${order}`;
    },
  });
  const model = new ScriptedChatModel([
    { toolCalls: [{ name: 'refund', arguments: { order: 'A1' } }] },
    'Order A1 is refunded.',
    { toolCalls: [{ name: 'refund', arguments: { order: 'B2' } }] },
    'I did not refund B2.',
  ]);
  const agent = new ChatModelAgent({ name: 'refunds', model, tools: [refund] });
  return { agent, refunds };
}

describe('a Weft pause is an input-required task', () => {
  it('asks for the approval, and the answer "yes" in the same task runs the tool and completes it', async () => {
    const { agent, refunds } = refundAgent();
    server = await serveA2a({ agent, port: 0 });
    const client = await sdkClient(server.url);
    const asked = asTask(await client.sendMessage(sendOf(userText('Refund order A1'))));
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const question = asked.status?.message?.parts[0]?.content;
    expect(question?.$case === 'text' && question.value).toBe(
      'Approve refund({"order":"A1"})? Answer yes or no.',
    );
    const pending = asked.status?.message?.parts[1]?.content;
    expect(pending?.$case === 'data' && pending.value.interrupts[0].value.type).toBe('tool-approval');
    expect(refunds).toEqual([]);

    const ids = { taskId: asked.id, contextId: asked.contextId };
    const done = asTask(await client.sendMessage(sendOf(userText('yes', ids))));
    expect(done.id).toBe(asked.id);
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactText(done)).toBe('Order A1 is refunded.');
    expect(refunds).toEqual(['A1']);
  });

  it('takes a data part as the answer, streamed, and a rejection reaches the model', async () => {
    const { agent, refunds } = refundAgent();
    server = await serveA2a({ agent, port: 0 });
    const client = await sdkClient(server.url);
    const first = asTask(await client.sendMessage(sendOf(userText('Refund order A1'))));
    await client.sendMessage(sendOf(userText('yes', { taskId: first.id, contextId: first.contextId })));
    // A second task in the same context (the agent's session) asks again.
    const second = asTask(
      await client.sendMessage(sendOf(userText('Refund B2', { contextId: first.contextId }))),
    );
    expect(second.id).not.toBe(first.id);
    expect(second.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const events = await drainStream(
      client.sendMessageStream(
        sendOf(
          userText(
            '',
            { taskId: second.id, contextId: second.contextId },
            { approved: false, reason: 'not eligible' },
          ),
        ),
      ),
    );
    const states = events.flatMap((e) =>
      e.payload?.$case === 'statusUpdate' ? [e.payload.value.status?.state] : [],
    );
    expect(states.at(-1)).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(refunds).toEqual(['A1']);
    const done = await client.getTask({ tenant: '', id: second.id, historyLength: undefined });
    expect(artifactText(done)).toBe('I did not refund B2.');
  });

  it('refuses a new task in a context whose task waits for input, and a message to a task still running', async () => {
    const { agent } = refundAgent();
    server = await serveA2a({ agent, port: 0 });
    const client = await sdkClient(server.url);
    const asked = asTask(await client.sendMessage(sendOf(userText('Refund order A1'))));
    await expect(
      client.sendMessage(sendOf(userText('Something else', { contextId: asked.contextId }))),
    ).rejects.toThrow(/has an open task/);
  });
});
