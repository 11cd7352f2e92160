import { TaskState } from '@a2a-js/sdk';
import { ChatModelAgent, MemorySessionService, type Message, mediaPart, Runner } from '@weft/adk';
import { ScriptedChatModel } from '@weft/adk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type A2aServer, serveA2a } from '../src/index.js';
import { asTask, sdkClient, sendOf, userText } from './fixtures/clients.js';
import { startWebhook, type Webhook } from './fixtures/webhook.js';

let server: A2aServer | undefined;
let webhook: Webhook | undefined;
afterEach(async () => {
  await server?.close();
  await webhook?.close();
  server = undefined;
  webhook = undefined;
});

const completed = (body: Record<string, unknown>) =>
  (body.statusUpdate as { status?: { state?: string } } | undefined)?.status?.state ===
  'TASK_STATE_COMPLETED';

describe('push notifications', () => {
  it('posts every event of a task to the webhook a client registered with its message', async () => {
    webhook = await startWebhook();
    const agent = new ChatModelAgent({ name: 'notifier', model: new ScriptedChatModel(['All done.']) });
    server = await serveA2a({
      agent,
      port: 0,
      pushNotifications: { allowUrl: (url) => url.hostname === '127.0.0.1' },
    });
    const client = await sdkClient(server.url);
    const push = {
      tenant: '',
      id: '',
      taskId: '',
      url: webhook.url,
      token: 'secret-for-this-task',
      authentication: undefined,
    };
    const task = asTask(
      await client.sendMessage({
        tenant: '',
        message: userText('Do it'),
        configuration: {
          acceptedOutputModes: [],
          taskPushNotificationConfig: push,
          returnImmediately: false,
        },
        metadata: {},
      }),
    );
    const last = await webhook.until(completed);
    expect((last.statusUpdate as { taskId: string }).taskId).toBe(task.id);
    expect(webhook.received[0]?.headers['x-a2a-notification-token']).toBe('secret-for-this-task');
    const configs = await client.listTaskPushNotificationConfig({
      tenant: '',
      taskId: task.id,
      pageSize: 10,
      pageToken: '',
    });
    expect(configs.configs.map((c) => c.url)).toEqual([webhook.url]);
  });

  it('refuses, by default, a webhook on this machine or a private network', async () => {
    const agent = new ChatModelAgent({
      name: 'notifier',
      model: new ScriptedChatModel(['All done.', 'Again.']),
    });
    server = await serveA2a({ agent, port: 0 });
    const client = await sdkClient(server.url);
    const task = asTask(await client.sendMessage(sendOf(userText('Do it'))));
    const config = {
      tenant: '',
      id: '',
      taskId: task.id,
      url: 'http://127.0.0.1:9/hook',
      token: '',
      authentication: undefined,
    };
    await expect(client.createTaskPushNotificationConfig(config)).rejects.toThrow(
      /not allowed by this server/,
    );
    await expect(
      client.createTaskPushNotificationConfig({ ...config, url: 'http://10.0.0.7/hook' }),
    ).rejects.toThrow(/not allowed/);
  });
});

describe('artifacts for files and data', () => {
  it('passes file and data parts in and answers with data and file artifacts', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
    const seen: Message[][] = [];
    const model = new ScriptedChatModel((messages) => {
      seen.push([...messages]);
      return {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Here is the chart.' },
          { type: 'json', value: { total: 42 } },
          mediaPart({ type: 'image', mediaType: 'image/png', bytes: png }),
          {
            type: 'file',
            mediaType: 'application/pdf',
            url: 'https://example.com/report.pdf',
            filename: 'report.pdf',
          },
        ],
      };
    });
    // Whole replies (a scripted model streams only text): the reply's parts reach the artifact as they are.
    const agent = new ChatModelAgent({ name: 'charts', model });
    server = await serveA2a({
      runner: new Runner({ agent, sessionService: new MemorySessionService(), streaming: false }),
      port: 0,
    });
    const client = await sdkClient(server.url);
    const message = userText('Chart this', {}, { rows: [1, 2] });
    message.parts.push({
      content: { $case: 'raw', value: Buffer.from('a,b\n1,2\n') },
      mediaType: 'text/csv',
      filename: 'data.csv',
      metadata: {},
    });
    const task = asTask(await client.sendMessage(sendOf(message)));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const user = seen[0]?.find((m) => m.role === 'user');
    expect(user?.content).toEqual([
      { type: 'text', text: 'Chart this' },
      { type: 'json', value: { rows: [1, 2] } },
      {
        type: 'file',
        mediaType: 'text/csv',
        filename: 'data.csv',
        data: Buffer.from('a,b\n1,2\n').toString('base64'),
      },
    ]);
    const parts = task.artifacts[0]?.parts ?? [];
    expect(parts.map((p) => [p.content?.$case, p.mediaType])).toEqual([
      ['text', 'text/plain'],
      ['data', 'application/json'],
      ['raw', 'image/png'],
      ['url', 'application/pdf'],
    ]);
    const data = parts[1]?.content;
    expect(data?.$case === 'data' && data.value).toEqual({ total: 42 });
    const raw = parts[2]?.content;
    expect(raw?.$case === 'raw' && [...raw.value]).toEqual([...png]);
    expect(parts[3]?.filename).toBe('report.pdf');
  });
});
