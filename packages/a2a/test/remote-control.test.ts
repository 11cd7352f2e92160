import { type AgentEvent, ChatModelAgent, MemorySessionService, messageText, Runner, tool } from '@weft/adk';
import { drain, ScriptedChatModel } from '@weft/adk/testing';
import { MemoryCheckpointer } from '@weft/compose';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type A2aInputRequired,
  type A2aServer,
  RemoteA2aAgent,
  serveA2a,
  WeftA2aError,
} from '../src/index.js';
import {
  askingExecutor,
  cancellableExecutor,
  replyingExecutor,
  type SdkAgent,
  startSdkAgent,
} from './fixtures/sdk-agents.js';

const closing: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const c of closing.splice(0)) await c.close();
});
async function sdk(...args: Parameters<typeof startSdkAgent>): Promise<SdkAgent> {
  const agent = await startSdkAgent(...args);
  closing.push(agent);
  return agent;
}

const asked = (events: readonly AgentEvent[]): A2aInputRequired => {
  const pause = events.at(-1)?.interrupts?.[0];
  if (!pause) throw new Error('the run did not pause');
  return pause.value as A2aInputRequired;
};

describe('input-required, cancel and auth with a remote A2A agent', () => {
  it('surfaces input-required as a Weft interrupt, answered through runner.resume in the same remote task', async () => {
    const remote = await sdk(askingExecutor(), { name: 'weather' });
    const weather = new RemoteA2aAgent({ name: 'weather', url: remote.url });
    const runner = new Runner({
      agent: weather,
      sessionService: new MemorySessionService(),
      checkpointer: new MemoryCheckpointer(),
    });
    const first = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'What is the weather?' }));
    const value = asked(first);
    expect(value).toMatchObject({
      type: 'a2a-input-required',
      agent: 'weather',
      state: 'TASK_STATE_INPUT_REQUIRED',
      question: 'Which city?',
    });
    const done = await drain(runner.resume({ userId: 'u', sessionId: 's', decisions: 'Lisbon' }));
    const reply = done.find((e) => !e.partial && e.message?.role === 'assistant');
    expect(messageText(reply!.message!)).toBe('It is sunny in Lisbon.');
    // One remote task: the answer went to the task that asked, and the question was sent once.
    expect(remote.received).toHaveLength(2);
    expect(remote.received[1]?.taskId).toBe(value.taskId);
    expect(remote.received[1]?.parts[0]?.content).toEqual({ $case: 'text', value: 'Lisbon' });
  });

  it('cancelling the Weft run cancels the remote task', async () => {
    const executor = cancellableExecutor();
    const remote = await sdk(executor, { name: 'slow' });
    const slow = new RemoteA2aAgent({ name: 'slow', url: remote.url });
    const runner = new Runner({ agent: slow, sessionService: new MemorySessionService() });
    const running = drain(runner.run({ userId: 'u', sessionId: 's', message: 'Take your time' }));
    const taskId = await executor.started;
    expect(runner.cancel({ userId: 'u', sessionId: 's' })).toBe(true);
    const events = await running;
    expect(events.at(-1)?.error?.code).toBe('CANCELLED');
    // The remote task is cancelled by the node as it stops (the run does not wait for that request).
    expect(await executor.cancelled).toBe(taskId);
    expect(remote.cancelled).toEqual([taskId]);
  });

  it('sends static headers, and headers from a function on every request', async () => {
    const remote = await sdk(
      replyingExecutor(() => 'ok'),
      { name: 'guarded', token: 'secret-1' },
    );
    const fixed = new RemoteA2aAgent({
      name: 'fixed',
      url: remote.url,
      headers: { authorization: 'Bearer secret-1' },
    });
    const fixedRunner = new Runner({ agent: fixed, sessionService: new MemorySessionService() });
    expect(
      (await drain(fixedRunner.run({ userId: 'u', sessionId: 's', message: 'hi' }))).at(-1)?.error,
    ).toBeUndefined();
    let calls = 0;
    const rotating = new RemoteA2aAgent({
      name: 'rotating',
      url: remote.url,
      headers: async () => {
        calls += 1;
        return { authorization: 'Bearer secret-1' };
      },
    });
    const rotatingRunner = new Runner({ agent: rotating, sessionService: new MemorySessionService() });
    await drain(rotatingRunner.run({ userId: 'u', sessionId: 's', message: 'hi' }));
    expect(calls).toBeGreaterThanOrEqual(2); // the card and the message
    expect(remote.authorizations.every((a) => a === 'Bearer secret-1')).toBe(true);
    const anonymous = new RemoteA2aAgent({ name: 'anonymous', url: remote.url });
    const failed = drain(
      new Runner({ agent: anonymous, sessionService: new MemorySessionService() }).run({
        userId: 'u',
        sessionId: 's',
        message: 'hi',
      }),
    );
    const error = await failed.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    const cause = (error as { cause?: unknown } | undefined)?.cause;
    expect(WeftA2aError.isInstance(cause) && cause.code).toBe('CARD_UNAVAILABLE');
    expect((cause as Error).message).toMatch(/401/);
  });

  it('calls an agent that does not stream with blocking SendMessage', async () => {
    const remote = await sdk(
      replyingExecutor((text) => `echo: ${text}`),
      { name: 'echo', streaming: false },
    );
    const echo = new RemoteA2aAgent({ name: 'echo', url: remote.url });
    const events = await drain(
      new Runner({ agent: echo, sessionService: new MemorySessionService() }).run({
        userId: 'u',
        sessionId: 's',
        message: 'ping',
      }),
    );
    expect(events.filter((e) => e.partial)).toEqual([]);
    expect(messageText(events.find((e) => e.author === 'echo' && e.message)!.message!)).toBe('echo: ping');
  });
});

describe('a Weft agent calling a Weft A2A server', () => {
  let server: A2aServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('answers the served agent’s tool approval through its own resume, twice in a row', async () => {
    const shipped: string[] = [];
    const ship = tool({
      name: 'ship',
      description: 'Ships an order',
      parameters: z.object({ order: z.string() }),
      needsApproval: true,
      execute: ({ order }) => {
        shipped.push(order);
        return 'shipped';
      },
    });
    const warehouse = new ChatModelAgent({
      name: 'warehouse',
      description: 'Ships orders',
      model: new ScriptedChatModel([
        { toolCalls: [{ name: 'ship', arguments: { order: 'A1' } }] },
        { toolCalls: [{ name: 'ship', arguments: { order: 'A2' } }] },
        'Shipped A1 and A2.',
      ]),
      tools: [ship],
    });
    server = await serveA2a({ agent: warehouse, port: 0 });
    const remote = await RemoteA2aAgent.fromUrl({ name: 'warehouse', url: server.url });
    const runner = new Runner({ agent: remote, sessionService: new MemorySessionService() });
    const first = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'Ship A1 and A2' }));
    expect(asked(first).question).toBe('Approve ship({"order":"A1"})? Answer yes or no.');
    const second = await drain(runner.resume({ userId: 'u', sessionId: 's', decisions: true }));
    expect(asked(second).question).toBe('Approve ship({"order":"A2"})? Answer yes or no.');
    const done = await drain(runner.resume({ userId: 'u', sessionId: 's', decisions: 'yes' }));
    expect(messageText(done.find((e) => !e.partial && e.message?.role === 'assistant')!.message!)).toBe(
      'Shipped A1 and A2.',
    );
    expect(shipped).toEqual(['A1', 'A2']);
  });
});
