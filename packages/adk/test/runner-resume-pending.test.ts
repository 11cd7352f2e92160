import { MemoryCheckpointer } from '@weft/compose';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { AdkError, ChatModelAgent, MemorySessionService, Runner, tool } from '../src/index.js';
import { drain, ScriptedChatModel } from '../src/testing/index.js';

const ref = { userId: 'u', sessionId: 's' };
const key = { appName: 'worker', ...ref };

function setup(script: ConstructorParameters<typeof ScriptedChatModel>[0]) {
  let runner!: Runner;
  const slow = tool({
    name: 'slow',
    description: 'Works until cancelled',
    parameters: z.object({}),
    execute: (_args, ctx) => {
      runner.cancel(ref);
      return new Promise<string>((_resolve, reject) => {
        if (ctx.signal.aborted) reject(ctx.signal.reason);
        ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason));
      });
    },
  });
  const model = new ScriptedChatModel(script);
  const agent = new ChatModelAgent({ name: 'worker', model, tools: [slow] });
  const sessionService = new MemorySessionService();
  const checkpointer = new MemoryCheckpointer();
  runner = new Runner({ agent, sessionService, checkpointer, streaming: false });
  return { runner, sessionService, model, checkpointer };
}

async function rejection(stream: AsyncIterable<unknown>): Promise<unknown> {
  return drain(stream).then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('what a resume continues', () => {
  test('an immediate cancel leaves the turn paused, and resume continues it from its last checkpoint', async () => {
    const { runner, sessionService, model } = setup([{ toolCalls: [{ name: 'slow' }] }, 'Done after all.']);
    const stopped = await drain(runner.run({ ...ref, message: 'go' }));
    expect(stopped.at(-1)).toMatchObject({ error: { code: 'CANCELLED' } });
    expect(await sessionService.get(key)).toMatchObject({ status: 'paused', turns: 1 });
    // The slow tool would cancel again: the resumed step runs it once more and the turn stops again.
    const again = await drain(runner.resume(ref));
    expect(again.at(-1)).toMatchObject({ error: { code: 'CANCELLED' } });
    expect(model.calls).toHaveLength(1);
    expect(await sessionService.get(key)).toMatchObject({ status: 'paused', turns: 1 });
  });

  test('a resume of a finished turn is NOT_RESUMABLE and stores nothing, with or without its checkpoint', async () => {
    const { runner, sessionService, checkpointer } = setup(['Hello.']);
    await drain(runner.run({ ...ref, message: 'Hi' }));
    const before = await sessionService.get(key);
    expect(before).toMatchObject({ status: 'idle', turns: 1 });
    const plain = await rejection(runner.resume(ref));
    expect(AdkError.isInstance(plain) && plain.code).toBe('NOT_RESUMABLE');
    expect(String((plain as Error).message)).toContain('nothing to resume');
    const thread = (await checkpointer.list(JSON.stringify(['worker', 'u', 's'])))[0];
    const named = await rejection(runner.resume({ ...ref, checkpointId: thread?.id as string }));
    expect(AdkError.isInstance(named) && named.code).toBe('NOT_RESUMABLE');
    expect(await sessionService.get(key)).toEqual(before);
  });

  test('a new message still starts a turn on a paused session', async () => {
    const { runner, sessionService } = setup([{ toolCalls: [{ name: 'slow' }] }, 'Fresh start.']);
    await drain(runner.run({ ...ref, message: 'go' }));
    expect(await sessionService.get(key)).toMatchObject({ status: 'paused' });
    const next = await drain(runner.run({ ...ref, message: 'forget it' }));
    expect(next.filter((e) => e.message?.role === 'assistant').at(-1)?.message?.content).toBe('Fresh start.');
    expect(await sessionService.get(key)).toMatchObject({ status: 'idle', turns: 2 });
  });
});
