import { TaskState } from '@a2a-js/sdk';
import { ChatModelAgent, tool } from '@weft/adk';
import { ScriptedChatModel } from '@weft/adk/testing';
import { END, START, StateGraph } from '@weft/compose';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type A2aServer, serveA2a } from '../src/index.js';
import { artifactText, asTask, sdkClient, sendOf, userText } from './fixtures/clients.js';
import { durableBackends, type StoreBackend } from './fixtures/durable-stores.js';
import { Gate } from './fixtures/gate.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const returnNow = { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately: true };

/** The stock agent of one server process: its tool waits at `gate`; `counted` records each run of it. */
function stockAgent(
  gate: Gate,
  script: ConstructorParameters<typeof ScriptedChatModel>[0],
  counted: string[],
) {
  const count = tool({
    name: 'count_stock',
    description: 'Counts the stock',
    parameters: z.object({ shelf: z.string() }),
    execute: async ({ shelf }, context) => {
      await gate.wait(context.signal);
      counted.push(shelf);
      return `${shelf}: 12 boxes`;
    },
  });
  return new ChatModelAgent({ name: 'stock', model: new ScriptedChatModel(script), tools: [count] });
}

async function start(backend: StoreBackend, agent: ChatModelAgent): Promise<A2aServer> {
  const stores = await backend.open();
  const server = await serveA2a({ agent, port: 0, ...stores });
  cleanups.push(() => stores.close());
  cleanups.push(() => server.close());
  return server;
}

describe.each(durableBackends())(
  'a server restarted over the same stores loses nothing ($name)',
  ({ make }) => {
    it('continues a task stopped mid-run (in a tool) and a client follows it to the end', async () => {
      const db = make();
      cleanups.push(() => db.remove());
      const counted: string[] = [];
      const first = new Gate();
      const toolCall = { toolCalls: [{ name: 'count_stock', arguments: { shelf: 'B3' } }] };
      const before = await start(db, stockAgent(first, [toolCall], counted));
      const client = await sdkClient(before.url);
      const task = asTask(
        await client.sendMessage({
          tenant: '',
          message: userText('Count shelf B3'),
          configuration: returnNow,
          metadata: {},
        }),
      );
      await first.entered;
      await before.close(); // the server stops with the tool call in flight

      const second = new Gate();
      const after = await start(db, stockAgent(second, ['Shelf B3 holds 12 boxes.'], counted));
      const again = await sdkClient(after.url);
      const stream = again.resubscribeTask({ tenant: '', id: task.id });
      const snapshot = (await stream.next()).value?.payload;
      expect(snapshot?.$case === 'task' && snapshot.value.status?.state).toBe(TaskState.TASK_STATE_WORKING);
      await second.entered;
      second.open();
      const states: TaskState[] = [];
      for await (const event of stream)
        if (event.payload?.$case === 'statusUpdate' && event.payload.value.status)
          states.push(event.payload.value.status.state);
      expect(states.at(-1)).toBe(TaskState.TASK_STATE_COMPLETED);
      const done = await again.getTask({ tenant: '', id: task.id, historyLength: undefined });
      expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(artifactText(done)).toBe('Shelf B3 holds 12 boxes.');
      expect(counted).toEqual(['B3']); // the interrupted call ran to its end once, in the second server
      expect(done.history[0]?.parts[0]?.content).toEqual({ $case: 'text', value: 'Count shelf B3' });
    });

    it('continues a task waiting for input: the answer goes to the new server', async () => {
      const db = make();
      cleanups.push(() => db.remove());
      const shipped: string[] = [];
      const ship = (name: string) =>
        new ChatModelAgent({
          name: 'shipper',
          model: new ScriptedChatModel(
            name === 'before'
              ? [{ toolCalls: [{ name: 'ship', arguments: { order: 'C9' } }] }]
              : ['C9 is on its way.'],
          ),
          tools: [
            tool({
              name: 'ship',
              description: 'Ships an order',
              parameters: z.object({ order: z.string() }),
              needsApproval: true,
              execute: ({ order }) => {
                shipped.push(`${order} by ${name}`);
                return 'shipped';
              },
            }),
          ],
        });
      const before = await start(db, ship('before'));
      const asked = asTask(await (await sdkClient(before.url)).sendMessage(sendOf(userText('Ship C9'))));
      expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      await before.close();

      const after = await start(db, ship('after'));
      const client = await sdkClient(after.url);
      const waiting = await client.getTask({ tenant: '', id: asked.id, historyLength: undefined });
      expect(waiting.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      const done = asTask(
        await client.sendMessage(sendOf(userText('yes', { taskId: asked.id, contextId: asked.contextId }))),
      );
      expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(artifactText(done)).toBe('C9 is on its way.');
      expect(shipped).toEqual(['C9 by after']);
    });

    it('continues a served graph stopped in a node, from its last checkpoint', async () => {
      const db = make();
      cleanups.push(() => db.remove());
      const ran: string[] = [];
      const graph = (gate: Gate, name: string) =>
        new StateGraph(
          z.object({ order: z.string(), packed: z.boolean().optional(), shipped: z.boolean().optional() }),
        )
          .addNode('pack', () => {
            ran.push(`pack by ${name}`);
            return { packed: true };
          })
          .addNode('ship', async (_state, ctx) => {
            await gate.wait(ctx.signal);
            ran.push(`ship by ${name}`);
            return { shipped: true };
          })
          .addEdge(START, 'pack')
          .addEdge('pack', 'ship')
          .addEdge('ship', END)
          .compile({ name: 'fulfil' });
      const serve = async (gate: Gate, name: string) => {
        const stores = await db.open();
        const server = await serveA2a({
          graph: graph(gate, name),
          port: 0,
          taskStore: stores.taskStore,
          checkpointer: stores.checkpointer,
        });
        cleanups.push(() => stores.close());
        cleanups.push(() => server.close());
        return server;
      };
      const first = new Gate();
      const before = await serve(first, 'before');
      const client = await sdkClient(before.url);
      const task = asTask(
        await client.sendMessage({
          tenant: '',
          message: userText('', {}, { order: 'D4' }),
          configuration: returnNow,
          metadata: {},
        }),
      );
      await first.entered;
      await before.close();

      const second = new Gate();
      const after = await serve(second, 'after');
      const again = await sdkClient(after.url);
      const stream = again.resubscribeTask({ tenant: '', id: task.id });
      await stream.next(); // the task as it stands: working
      second.open();
      for await (const _event of stream) {
        // to its end
      }
      const done = await again.getTask({ tenant: '', id: task.id, historyLength: undefined });
      expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(done.artifacts[0]?.parts[0]?.content).toEqual({
        $case: 'data',
        value: { order: 'D4', packed: true, shipped: true },
      });
      expect(ran).toEqual(['pack by before', 'ship by after']); // the finished node did not run again
    });
  },
);
