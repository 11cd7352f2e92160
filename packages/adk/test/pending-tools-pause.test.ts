/**
 * Weft's other way for long-running tools: a tool that returns `pending(id)` pauses the turn durably
 * until its result is delivered. Every pending call of a turn is announced together (one interrupt
 * each) and their results are accepted in any order — by `runner.resume` with interrupt ids, or as tool
 * messages sent with `runner.run` (the way Google ADK's clients send function responses).
 */
import { MemoryCheckpointer } from '@weft/compose';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  type AgentInterrupt,
  ChatModelAgent,
  MemorySessionService,
  type Message,
  messageText,
  pending,
  Runner,
  type ToolPendingRequest,
  tool,
  toolMessage,
} from '../src/index.js';
import { drain, ScriptedChatModel } from '../src/testing/index.js';

const ref = { userId: 'u1', sessionId: 's1' };
const key = { appName: 'studio', ...ref };

function setup() {
  const submitted: string[] = [];
  const render = tool({
    name: 'render',
    description: 'Renders a clip; takes minutes',
    parameters: z.object({ clip: z.string() }),
    execute: ({ clip }) => {
      submitted.push(clip);
      return pending(`job-${clip}`, { clip });
    },
  });
  const model = new ScriptedChatModel((messages) => {
    const last = messages.at(-1) as Message;
    if (last.role === 'user')
      return {
        toolCalls: [
          { id: 'a', name: 'render', arguments: { clip: 'intro' } },
          { id: 'b', name: 'render', arguments: { clip: 'outro' } },
        ],
      };
    const results = messages.filter((m) => m.role === 'tool').map((m) => `${m.name}=${messageText(m)}`);
    return `Done: ${results.join(', ')}`;
  });
  const agent = new ChatModelAgent({ name: 'studio', model, tools: [render] });
  const sessionService = new MemorySessionService();
  const runner = new Runner({
    agent,
    sessionService,
    checkpointer: new MemoryCheckpointer(),
    streaming: false,
  });
  return { runner, sessionService, model, submitted };
}

const waits = (interrupts: readonly AgentInterrupt[] | undefined) =>
  (interrupts ?? []).map((i) => i.value as ToolPendingRequest);

describe('pending tools pause the turn', () => {
  test('two pending calls are announced together, and their results are accepted in any order', async () => {
    const { runner, sessionService, model, submitted } = setup();
    const first = await drain(runner.run({ ...ref, message: 'Render both clips' }));
    const paused = first.at(-1)?.interrupts ?? [];
    expect(waits(paused).map((w) => [w.type, w.toolCallId, w.pendingId])).toEqual([
      ['tool-pending', 'a', 'job-intro'],
      ['tool-pending', 'b', 'job-outro'],
    ]);
    expect(await sessionService.get(key)).toMatchObject({ status: 'waiting' });

    // The second job finishes first.
    const idOf = (call: string) =>
      paused.find((i) => (i.value as ToolPendingRequest).toolCallId === call)?.id;
    const second = await drain(runner.resume({ ...ref, decisions: { [idOf('b') as string]: 'outro.mp4' } }));
    expect(waits(second.at(-1)?.interrupts).map((w) => w.toolCallId)).toEqual(['a']);
    expect(second.at(-1)?.interrupts?.[0]?.id).toBe(idOf('a'));
    expect(model.calls).toHaveLength(1);
    expect(await sessionService.get(key)).toMatchObject({ status: 'waiting' });

    const third = await drain(runner.resume({ ...ref, decisions: 'intro.mp4' }));
    expect(third.at(-1)?.interrupts).toBeUndefined();
    expect(messageText(third.filter((e) => e.message?.role === 'assistant').at(-1)?.message as Message)).toBe(
      'Done: render=intro.mp4, render=outro.mp4',
    );
    expect(submitted).toEqual(['intro', 'outro']); // each tool ran once
    expect(await sessionService.get(key)).toMatchObject({ status: 'idle', turns: 1 });
  });

  test('a result sent as a tool message answers its pending call; the other keeps waiting', async () => {
    const { runner, sessionService, model } = setup();
    await drain(runner.run({ ...ref, message: 'Render both clips' }));
    const outro = toolMessage('outro.mp4', { toolCallId: 'b', name: 'render' });
    const afterOutro = await drain(runner.run({ ...ref, message: outro }));
    expect(waits(afterOutro.at(-1)?.interrupts).map((w) => w.toolCallId)).toEqual(['a']);
    const intro = toolMessage('intro.mp4', { toolCallId: 'a', name: 'render' });
    await drain(runner.run({ ...ref, message: intro }));
    expect(
      model.calls
        .at(-1)
        ?.messages.filter((m) => m.role === 'tool')
        .map((m) => messageText(m)),
    ).toEqual(['intro.mp4', 'outro.mp4']);
    expect(await sessionService.get(key)).toMatchObject({ status: 'idle', turns: 1 });

    // Once delivered, later results for a call are still accepted: each is a turn the model answers.
    const again = await drain(
      runner.run({ ...ref, message: toolMessage('intro-v2.mp4', { toolCallId: 'a', name: 'render' }) }),
    );
    expect(
      again.filter((e) => e.message?.role === 'assistant').map((e) => messageText(e.message as Message)),
    ).toEqual(['Done: render=intro-v2.mp4, render=outro.mp4']);
    expect(await sessionService.get(key)).toMatchObject({ status: 'idle', turns: 2 });
  });
});
