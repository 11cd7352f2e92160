import { TaskState } from '@a2a-js/sdk';
import { ChatModelAgent, tool } from '@weft/adk';
import { ScriptedChatModel } from '@weft/adk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type A2aServer, serveA2a } from '../src/index.js';
import { asTask, drainStream, sdkClient, userText } from './fixtures/clients.js';
import { Gate } from './fixtures/gate.js';

let server: A2aServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** An agent whose tool waits at `gate` (and stops when its call is aborted). */
function slowAgent(gate: Gate) {
  const ran: string[] = [];
  const wait = tool({
    name: 'wait_for_stock',
    description: 'Waits until the stock is counted',
    parameters: z.object({}),
    execute: async (_args, context) => {
      await gate.wait(context.signal);
      ran.push('counted');
      return 'counted';
    },
  });
  const model = new ScriptedChatModel([
    { toolCalls: [{ name: 'wait_for_stock', arguments: {} }] },
    'Stock counted.',
  ]);
  return { agent: new ChatModelAgent({ name: 'stock', model, tools: [wait] }), ran };
}

const returnNow = { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately: true };

describe('cancel and resubscribe, through the SDK client', () => {
  it('cancels a running task: the run stops and the task ends canceled', async () => {
    const gate = new Gate();
    const { agent, ran } = slowAgent(gate);
    server = await serveA2a({ agent, port: 0 });
    const client = await sdkClient(server.url);
    const started = asTask(
      await client.sendMessage({
        tenant: '',
        message: userText('Count the stock'),
        configuration: returnNow,
        metadata: {},
      }),
    );
    await gate.entered;
    const cancelled = await client.cancelTask({ tenant: '', id: started.id, metadata: {} });
    expect(cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    gate.open();
    const after = await client.getTask({ tenant: '', id: started.id, historyLength: undefined });
    expect(after.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(ran).toEqual([]);
    // A canceled task is terminal: resubscribing is refused.
    await expect(drainStream(client.resubscribeTask({ tenant: '', id: started.id }))).rejects.toThrow(
      /terminal/,
    );
  });

  it('resubscribes to a running task and follows it to the end', async () => {
    const gate = new Gate();
    const { agent } = slowAgent(gate);
    server = await serveA2a({ agent, port: 0 });
    const client = await sdkClient(server.url);
    const started = asTask(
      await client.sendMessage({
        tenant: '',
        message: userText('Count the stock'),
        configuration: returnNow,
        metadata: {},
      }),
    );
    await gate.entered;
    const stream = client.resubscribeTask({ tenant: '', id: started.id });
    const first = await stream.next();
    const payload = first.value?.payload;
    expect(payload?.$case === 'task' && payload.value.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    gate.open();
    const rest = [];
    for await (const event of stream) rest.push(event);
    const states = rest.flatMap((e) =>
      e.payload?.$case === 'statusUpdate' ? [e.payload.value.status?.state] : [],
    );
    expect(states.at(-1)).toBe(TaskState.TASK_STATE_COMPLETED);
    // A subscriber sees events as they are published (the request's own consumer stores them).
    const reply = rest
      .flatMap((e) => (e.payload?.$case === 'artifactUpdate' ? [e.payload.value] : []))
      .at(-1);
    expect(reply?.lastChunk).toBe(true);
    expect(reply?.artifact?.parts[0]?.content).toEqual({ $case: 'text', value: 'Stock counted.' });
  });

  it('cancels a task waiting for input', async () => {
    const approve = tool({
      name: 'ship',
      description: 'Ships',
      parameters: z.object({}),
      needsApproval: true,
      execute: () => 'shipped',
    });
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: 'ship', arguments: {} }] },
      { toolCalls: [{ name: 'ship', arguments: {} }] },
    ]);
    server = await serveA2a({
      agent: new ChatModelAgent({ name: 'shipper', model, tools: [approve] }),
      port: 0,
    });
    const client = await sdkClient(server.url);
    const asked = asTask(
      await client.sendMessage({
        tenant: '',
        message: userText('Ship it'),
        configuration: undefined,
        metadata: {},
      }),
    );
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const cancelled = await client.cancelTask({ tenant: '', id: asked.id, metadata: {} });
    expect(cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    // The context is free again: a new task starts.
    const next = asTask(
      await client.sendMessage({
        tenant: '',
        message: userText('Ship it', { contextId: asked.contextId }),
        configuration: undefined,
        metadata: {},
      }),
    );
    expect(next.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    // The canceled call was answered in the session's history before the new turn's model call.
    const second = model.calls[1]?.messages ?? [];
    expect(second.filter((m) => m.role === 'tool').map((m) => m.content)).toHaveLength(1);
  });
});
