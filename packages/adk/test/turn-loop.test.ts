import { MemoryCheckpointer } from '@weft/compose';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { TURN_LOOP_KEY } from '../src/agent-graph.js';
import {
  type AgentEvent,
  ChatModelAgent,
  MemorySessionService,
  type Message,
  messageText,
  Runner,
  TurnLoop,
  tool,
} from '../src/index.js';
import { ScriptedChatModel } from '../src/testing/index.js';

/** The agent's turns: "task X" asks for the `work` tool once, then reports "X done"; anything else is echoed. */
function setup(onWork: (task: string, signal: AbortSignal, attempt: number) => Promise<string> | string) {
  const attempts = new Map<string, number>();
  const work = tool({
    name: 'work',
    description: 'does a task',
    parameters: z.object({ task: z.string() }),
    execute: ({ task }, ctx) => {
      const attempt = (attempts.get(task) ?? 0) + 1;
      attempts.set(task, attempt);
      return onWork(task, ctx.signal, attempt);
    },
  });
  const model = new ScriptedChatModel((messages) => {
    const last = messages.at(-1) as Message;
    const text = messageText(last);
    if (last.role === 'user' && text.startsWith('task '))
      return {
        toolCalls: [{ id: `w-${text}-${messages.length}`, name: 'work', arguments: { task: text.slice(5) } }],
      };
    if (last.role === 'tool') return `${text} done`;
    return `echo: ${text}`;
  });
  const agent = new ChatModelAgent({ name: 'assistant', model, tools: [work] });
  return { agent, model };
}

function boot(
  agent: ChatModelAgent,
  stores: { sessions: MemorySessionService; checkpointer: MemoryCheckpointer },
) {
  const runner = new Runner({
    agent,
    sessionService: stores.sessions,
    checkpointer: stores.checkpointer,
    streaming: false,
  });
  const replies: string[] = [];
  const onEvent = (event: AgentEvent) => {
    if (event.message?.role === 'assistant' && messageText(event.message))
      replies.push(messageText(event.message));
  };
  return { runner, replies, onEvent };
}

const stores = () => ({ sessions: new MemorySessionService(), checkpointer: new MemoryCheckpointer() });

describe('TurnLoop', () => {
  test('runs pushed items as turns; an urgent item preempts the running turn at a safe point', async () => {
    let loop!: TurnLoop;
    const { agent } = setup(async (task) => {
      if (task === 'A') await loop.push('URGENT: server down', { urgent: true });
      return task;
    });
    const { runner, replies, onEvent } = boot(agent, stores());
    loop = new TurnLoop({ runner, userId: 'u', sessionId: 's', preempt: { at: 'afterTools' }, onEvent });
    await loop.start();
    await loop.push('task A');
    await loop.push('task B');
    await loop.idle();
    // A stopped after its tool (no "A done"); the urgent item went before B.
    expect(replies).toEqual(['echo: URGENT: server down', 'B done']);
    expect(loop.pending).toEqual([]);
    await loop.stop();
  });

  test('a preemption that reaches no safe point in time escalates to an immediate stop', async () => {
    let loop!: TurnLoop;
    let aborted = false;
    const { agent } = setup(
      (task, signal) =>
        new Promise<string>((resolve, reject) => {
          if (task !== 'A') return resolve(task);
          signal.addEventListener('abort', () => {
            aborted = true;
            reject(signal.reason);
          });
          void loop.pushEvent('alarm', { level: 'high' }, { urgent: true });
        }),
    );
    const { runner, replies, onEvent } = boot(agent, stores());
    loop = new TurnLoop({
      runner,
      userId: 'u',
      sessionId: 's',
      preempt: { at: 'afterModel', timeoutMs: 1 },
      onEvent,
    });
    await loop.start();
    await loop.push('task A');
    await loop.idle();
    expect(aborted).toBe(true);
    expect(replies).toEqual(['echo: [event alarm] {"level":"high"}']);
    await loop.stop();
  });

  test('a graceful stop finishes the running turn; the items left run after a restart', async () => {
    const shared = stores();
    let stopping: Promise<void> | undefined;
    let loop!: TurnLoop;
    const { agent } = setup((task) => {
      if (task === 'A') stopping = loop.stop();
      return task;
    });
    const first = boot(agent, shared);
    loop = new TurnLoop({ runner: first.runner, userId: 'u', sessionId: 's', onEvent: first.onEvent });
    await loop.start();
    await loop.push('task A');
    await loop.push('task B');
    while (!stopping) await new Promise<void>((resolve) => setImmediate(resolve));
    await stopping;
    expect(first.replies).toEqual(['A done']);
    expect(loop.pending.map((i) => i.message)).toEqual(['task B']);
    const session = await shared.sessions.get({ appName: 'assistant', userId: 'u', sessionId: 's' });
    expect(session?.state[TURN_LOOP_KEY]).toMatchObject({ queue: [{ message: 'task B' }] });

    const second = boot(setup((task) => task).agent, shared);
    const restarted = new TurnLoop({
      runner: second.runner,
      userId: 'u',
      sessionId: 's',
      onEvent: second.onEvent,
    });
    await restarted.start();
    await restarted.idle();
    expect(second.replies).toEqual(['B done']);
    await restarted.stop();
  });

  test('an immediate stop cancels the running turn; after a restart it resumes from its checkpoint', async () => {
    const shared = stores();
    let stopping: Promise<void> | undefined;
    let loop!: TurnLoop;
    const firstAgent = setup(
      (_task, signal) =>
        new Promise<string>((_resolve, reject) => {
          signal.addEventListener('abort', () => reject(signal.reason));
          stopping = loop.stop({ mode: 'immediate' });
        }),
    );
    const first = boot(firstAgent.agent, shared);
    loop = new TurnLoop({ runner: first.runner, userId: 'u', sessionId: 's', onEvent: first.onEvent });
    await loop.start();
    await loop.push('task A');
    await loop.push('task B');
    while (!stopping) await new Promise<void>((resolve) => setImmediate(resolve));
    await stopping;
    expect(first.replies).toEqual([]);
    expect(firstAgent.model.calls).toHaveLength(1);

    const secondAgent = setup((task) => task);
    const second = boot(secondAgent.agent, shared);
    const restarted = new TurnLoop({
      runner: second.runner,
      userId: 'u',
      sessionId: 's',
      onEvent: second.onEvent,
    });
    await restarted.start();
    await restarted.idle();
    // Turn A continued at its tools step (no new model call for its first step), then B ran.
    expect(second.replies).toEqual(['A done', 'B done']);
    expect(secondAgent.model.calls[0]?.messages.at(-1)).toMatchObject({ role: 'tool', content: 'A' });
    await restarted.stop();
  });

  test('a turn paused for approval waits for resume; items pushed meanwhile wait too', async () => {
    const refund = tool({
      name: 'refund',
      description: 'refunds',
      parameters: z.object({}),
      needsApproval: true,
      execute: () => 'refunded',
    });
    const model = new ScriptedChatModel((messages) => {
      const last = messages.at(-1) as Message;
      if (last.role === 'user' && messageText(last) === 'refund')
        return { toolCalls: [{ id: 'r1', name: 'refund' }] };
      return `ok: ${messageText(last)}`;
    });
    const agent = new ChatModelAgent({ name: 'assistant', model, tools: [refund] });
    const { runner, replies, onEvent } = boot(agent, stores());
    const loop = new TurnLoop({ runner, userId: 'u', sessionId: 's', onEvent });
    await loop.start();
    await loop.push('refund');
    await loop.idle();
    await loop.push('hello');
    await loop.idle();
    expect(replies).toEqual([]);
    await loop.resume(true);
    await loop.idle();
    expect(replies).toEqual(['ok: refunded', 'ok: hello']);
    await loop.stop();
  });
});
