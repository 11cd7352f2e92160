import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentTool, ChatModelAgent, tool } from '@weft/adk';
import { drain, ScriptedChatModel } from '@weft/adk/testing';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { restartedRunner } from './restarted-runner.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'weft-agent-tool-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** One "process": stores over the shared file; a host agent using a payments agent as a tool. */
function boot(filename: string, charges: string[]) {
  const charge = tool({
    name: 'charge',
    description: 'Charges the card on file',
    parameters: z.object({ amount: z.number() }),
    needsApproval: true,
    execute: ({ amount }, ctx) => {
      charges.push(`charged ${amount}`);
      ctx.state.set('lastCharge', amount);
      return `charged ${amount} EUR`;
    },
  });
  const payModel = new ScriptedChatModel((messages) => {
    const last = messages.at(-1);
    if (last?.role === 'user')
      return { toolCalls: [{ id: 'pay-1', name: 'charge', arguments: { amount: 30 } }] };
    return 'Payment complete.';
  });
  const payments = new ChatModelAgent({
    name: 'payments',
    description: 'Takes payments',
    model: payModel,
    tools: [charge],
  });
  const hostModel = new ScriptedChatModel((messages) => {
    const last = messages.at(-1);
    if (last?.role === 'user')
      return { toolCalls: [{ id: 'host-1', name: 'payments', arguments: { request: 'charge 30 EUR' } }] };
    return 'Your order is paid.';
  });
  const host = new ChatModelAgent({
    name: 'shop',
    model: hostModel,
    tools: [new AgentTool(payments)],
    outputKey: 'reply',
  });
  return { ...restartedRunner(filename, host), payModel, hostModel };
}

describe('an agent tool whose inner tool needs approval, across a restart (SQLite)', () => {
  test('pause, restart the process, approve, finish — the inner agent resumes where it paused', async () => {
    const filename = join(dir, 'weft.db');
    const charges: string[] = [];
    const first = boot(filename, charges);
    const events = await drain(first.runner.run({ userId: 'u', sessionId: 's', message: 'Pay my order' }));
    const pause = events.at(-1)?.interrupts?.[0];
    expect(pause?.value).toMatchObject({
      type: 'tool-approval',
      agent: 'payments',
      calls: [{ name: 'charge' }],
    });
    expect(events.find((e) => e.author === 'payments')?.branch).toBe('shop.payments');
    expect(charges).toEqual([]);
    await first.close();

    const second = boot(filename, charges);
    const resumed = await drain(
      second.runner.resume({ userId: 'u', sessionId: 's', decisions: { [pause!.id]: true } }),
    );
    expect(charges).toEqual(['charged 30']);
    expect(resumed.at(-1)).toMatchObject({ turnComplete: true });
    expect(resumed.at(-1)?.interrupts).toBeUndefined();
    // Neither agent starts over: the inner model answers once more, the host once more.
    expect(second.payModel.calls).toHaveLength(1);
    expect(second.hostModel.calls).toHaveLength(1);
    const session = await second.sessionService.get({ appName: 'shop', userId: 'u', sessionId: 's' });
    expect(session?.state).toMatchObject({ reply: 'Your order is paid.', lastCharge: 30 });
    await second.close();
  });
});
