import { TaskState } from '@a2a-js/sdk';
import { END, START, StateGraph } from '@weft/compose';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type A2aServer, serveA2a } from '../src/index.js';
import { asTask, sdkClient, sendOf, userText } from './fixtures/clients.js';

let server: A2aServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function refundGraph() {
  return new StateGraph(z.object({ order: z.string(), amount: z.number(), approved: z.boolean().optional() }))
    .addNode('review', (state, ctx) => {
      ctx.emit({ reviewing: state.order });
      const approved = ctx.interrupt<boolean>({ question: `Refund ${state.amount} EUR for ${state.order}?` });
      return { approved };
    })
    .addEdge(START, 'review')
    .addEdge('review', END)
    .compile({ name: 'refund' });
}

describe('a compiled graph served over A2A', () => {
  it('takes a data part as its input, pauses as input-required, and answers with its output as data', async () => {
    server = await serveA2a({
      graph: refundGraph(),
      description: 'Refunds an order after a review',
      port: 0,
    });
    const client = await sdkClient(server.url);
    const card = await client.getAgentCard();
    expect(card.skills.map((s) => [s.id, s.description])).toEqual([
      ['refund', 'Refunds an order after a review'],
    ]);
    const asked = asTask(await client.sendMessage(sendOf(userText('', {}, { order: 'A1', amount: 30 }))));
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(asked.status?.message?.parts[0]?.content).toEqual({
      $case: 'text',
      value: 'Refund 30 EUR for A1?',
    });
    const progress = asked.history
      .slice(1) // the first is the client's message
      .flatMap((m) => m.parts.map((p) => p.content))
      .find((c) => c?.$case === 'data');
    expect(progress).toEqual({ $case: 'data', value: { reviewing: 'A1' } });
    const done = asTask(await client.sendMessage(sendOf(userText('', { taskId: asked.id }, true))));
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(done.artifacts[0]?.parts[0]?.content).toEqual({
      $case: 'data',
      value: { order: 'A1', amount: 30, approved: true },
    });
  });

  it('fails a task whose input the graph refuses, naming the field', async () => {
    server = await serveA2a({ graph: refundGraph(), port: 0 });
    const client = await sdkClient(server.url);
    const task = asTask(await client.sendMessage(sendOf(userText('', {}, { order: 'A1', amount: 'lots' }))));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    const reason = task.status?.message?.parts[0]?.content;
    expect(reason?.$case === 'text' && reason.value).toMatch(/amount/);
  });
});

describe('listing tasks', () => {
  it('lists the caller’s tasks by context and state, a page at a time', async () => {
    server = await serveA2a({ graph: refundGraph(), port: 0 });
    const client = await sdkClient(server.url);
    const contextId = 'ctx-list';
    const ids: string[] = [];
    for (const order of ['A1', 'A2', 'A3'])
      ids.push(
        asTask(await client.sendMessage(sendOf(userText('', { contextId }, { order, amount: 1 })))).id,
      );
    await client.sendMessage(sendOf(userText('', { contextId: 'elsewhere' }, { order: 'Z9', amount: 1 })));
    const list = (pageToken: string) =>
      client.listTasks({
        tenant: '',
        contextId,
        status: TaskState.TASK_STATE_INPUT_REQUIRED,
        pageSize: 2,
        pageToken,
        historyLength: 0,
        statusTimestampAfter: undefined,
        includeArtifacts: false,
      });
    const first = await list('');
    expect(first.totalSize).toBe(3);
    expect(first.tasks).toHaveLength(2);
    const second = await list(first.nextPageToken);
    expect(second.nextPageToken).toBe('');
    expect([...first.tasks, ...second.tasks].map((t) => t.id).sort()).toEqual([...ids].sort());
  });
});
