import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { ChatModelAgent, MemorySessionService, Runner, tool } from '../src/index.js';
import { drain, ScriptedChatModel } from '../src/testing/index.js';

describe('runner.close', () => {
  test('cancels the running invocation, closes every resource once (even after one fails), refuses new runs', async () => {
    const closed: string[] = [];
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const wait = tool({
      name: 'wait',
      description: 'waits until cancelled',
      parameters: z.object({}),
      execute: (_args, ctx) =>
        new Promise((_resolve, reject) => {
          started();
          ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason));
        }),
    });
    const model = new ScriptedChatModel([{ toolCalls: [{ name: 'wait' }] }, 'never']);
    const agent = new ChatModelAgent({ name: 'closer', model, tools: [wait] });
    const runner = new Runner({
      agent,
      sessionService: new MemorySessionService(),
      streaming: false,
      resources: [
        {
          close: () => {
            closed.push('a');
            throw new Error('a failed');
          },
        },
        { close: async () => void closed.push('b') },
      ],
    });
    const events = drain(runner.run({ userId: 'u', sessionId: 's', message: 'go' }));
    await running;
    await expect(runner.close()).rejects.toThrow('a failed');
    expect(closed).toEqual(['a', 'b']);
    await events;
    await runner.close();
    expect(closed).toEqual(['a', 'b']);
    await expect(drain(runner.run({ userId: 'u', sessionId: 's2', message: 'again' }))).rejects.toThrow(
      /runner is closed/,
    );
  });
});
