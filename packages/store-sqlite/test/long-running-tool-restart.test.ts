import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChatModelAgent, messageText, pending, tool } from '@weft/adk';
import { drain, ScriptedChatModel } from '@weft/adk/testing';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { restartedRunner } from './restarted-runner.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'weft-pending-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** One "process": new Runner objects over the shared file; the render tool submits a job and returns pending. */
function boot(filename: string, submitted: string[]) {
  const render = tool({
    name: 'render',
    description: 'Renders a video; takes minutes',
    parameters: z.object({ script: z.string() }),
    execute: ({ script }) => {
      submitted.push(script);
      return pending(`job-${submitted.length}`, { eta: '5 min' });
    },
  });
  const model = new ScriptedChatModel((messages) => {
    const last = messages.at(-1);
    if (last?.role === 'user') return { toolCalls: [{ name: 'render', arguments: { script: 'intro' } }] };
    return `Your video: ${last ? messageText(last) : ''}`;
  });
  return {
    ...restartedRunner(
      filename,
      new ChatModelAgent({ name: 'studio', model, tools: [render], outputKey: 'reply' }),
    ),
    model,
  };
}

describe('a long-running tool across a restart (SQLite)', () => {
  test('the run pauses on the pending job; a new process delivers the result and the agent answers', async () => {
    const filename = join(dir, 'weft.db');
    const submitted: string[] = [];
    const key = { appName: 'studio', userId: 'u', sessionId: 's' };
    const first = boot(filename, submitted);
    const events = await drain(first.runner.run({ userId: 'u', sessionId: 's', message: 'Render my intro' }));
    const pause = events.at(-1)?.interrupts?.[0];
    expect(pause?.value).toMatchObject({
      type: 'tool-pending',
      tool: 'render',
      pendingId: 'job-1',
      info: { eta: '5 min' },
    });
    expect(await first.sessionService.get(key)).toMatchObject({ status: 'waiting' });
    await first.close();

    // Later, in another process: the job's webhook delivers its result.
    const second = boot(filename, submitted);
    const resumed = await drain(
      second.runner.resume({ userId: 'u', sessionId: 's', decisions: 'https://cdn.example/intro.mp4' }),
    );
    expect(submitted).toEqual(['intro']); // the tool ran once
    const toolResult = resumed.find((e) => e.message?.role === 'tool');
    expect(toolResult?.message).toMatchObject({ name: 'render', content: 'https://cdn.example/intro.mp4' });
    const session = await second.sessionService.get(key);
    expect(session?.state.reply).toBe('Your video: https://cdn.example/intro.mp4');
    expect(session).toMatchObject({ status: 'idle', turns: 1 });
    await second.close();
  });
});
