import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChatModelAgent, tool } from '@weft/adk';
import { drain, ScriptedChatModel } from '@weft/adk/testing';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { restartedRunner } from './restarted-runner.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'weft-hitl-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** One "process": stores over the shared file, an agent whose refund tool needs approval. */
function boot(filename: string, refunds: string[]) {
  const refund = tool({
    name: 'refund',
    description: 'Refunds an order',
    parameters: z.object({ order: z.string(), amount: z.number() }),
    needsApproval: ({ amount }) => amount > 20,
    execute: ({ order, amount }) => {
      refunds.push(order);
      return `refunded ${amount} EUR for ${order}`;
    },
  });
  const model = new ScriptedChatModel((messages) => {
    const last = messages.at(-1);
    if (last?.role === 'user')
      return { toolCalls: [{ name: 'refund', arguments: { order: 'A-1', amount: 50 } }] };
    return `Done: ${typeof last?.content === 'string' ? last.content : ''}`;
  });
  return {
    ...restartedRunner(
      filename,
      new ChatModelAgent({ name: 'support', model, tools: [refund], outputKey: 'reply' }),
    ),
    model,
  };
}

describe('human approval across a restart (SQLite)', () => {
  test('approve after the process restarted: the tool runs once and the run completes', async () => {
    const filename = join(dir, 'weft.db');
    const refunds: string[] = [];
    const first = boot(filename, refunds);
    const events = await drain(first.runner.run({ userId: 'u', sessionId: 's', message: 'refund my order' }));
    const pause = events.at(-1)?.interrupts?.[0];
    expect(pause?.value).toMatchObject({ type: 'tool-approval', calls: [{ name: 'refund' }] });
    expect(refunds).toEqual([]);
    await first.close();

    const second = boot(filename, refunds);
    const resumed = await drain(
      second.runner.resume({ userId: 'u', sessionId: 's', decisions: { [pause!.id]: true } }),
    );
    expect(refunds).toEqual(['A-1']);
    expect(resumed.at(-1)).toMatchObject({ turnComplete: true });
    const session = await second.sessionService.get({ appName: 'support', userId: 'u', sessionId: 's' });
    expect(session?.state.reply).toBe('Done: refunded 50 EUR for A-1');
    expect(second.model.calls).toHaveLength(1);
    await second.close();
  });

  test('reject: the tool never runs and the model reads the rejection', async () => {
    const filename = join(dir, 'weft.db');
    const refunds: string[] = [];
    const first = boot(filename, refunds);
    await drain(first.runner.run({ userId: 'u', sessionId: 's', message: 'refund my order' }));
    await first.close();
    const second = boot(filename, refunds);
    await drain(
      second.runner.resume({
        userId: 'u',
        sessionId: 's',
        decisions: { approved: false, reason: 'over the limit' },
      }),
    );
    expect(refunds).toEqual([]);
    const toolReply = second.model.calls[0]?.messages.at(-1);
    expect(toolReply).toMatchObject({ role: 'tool', content: 'The user rejected this call: over the limit' });
    await second.close();
  });
});
