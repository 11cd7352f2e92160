import { type Checkpointer, MemoryCheckpointer } from '@weft/compose';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ChatModelAgent } from '../../agent/chat-model-agent.js';
import type { AgentMiddleware } from '../../agent/middleware.js';
import { Runner } from '../../runner/runner.js';
import type { WaitingTimeout } from '../../runner/session-lifecycle.js';
import { tool } from '../../tool/tool.js';
import { drain } from '../drain.js';
import { ScriptedChatModel } from '../scripted-chat-model.js';
import { event, expectAdkError, type SessionServiceAccessor, session } from './session-fixtures.js';

/**
 * Conformance cases for the session state machine: status, status time and turn count stored by the
 * service, compare-and-set changes, listings by status (one user's or every user's), and a `Runner`
 * moving a session through `running`, `waiting`, `idle`, `failed` and `finished`, with the waiting
 * timeout's two actions.
 *
 * @example
 * ```ts
 * import { beforeEach } from 'vitest';
 * let service = new MemorySessionService();
 * beforeEach(() => {
 *   service = new MemorySessionService(); // a fresh, empty service for each test
 * });
 * describeStatusCases(() => service, () => undefined);
 * ```
 */
export function describeStatusCases(
  service: SessionServiceAccessor,
  checkpointer: () => Checkpointer | undefined,
): void {
  describe('session status', () => {
    it('a new session is idle with no turns; status changes are stored and survive appends', async () => {
      const key = await session(service(), 'u1', 's1');
      expect(await service().get(key)).toMatchObject({ status: 'idle', turns: 0 });
      const running = await service().setStatus(key, { status: 'running', countTurn: true, time: 1_000 });
      expect(running).toMatchObject({ ...key, status: 'running', statusTime: 1_000, turns: 1 });
      await service().appendEvent(key, event('0001', { text: 'hi' }));
      expect(await service().get(key)).toMatchObject({ status: 'running', statusTime: 1_000, turns: 1 });
      await service().setStatus(key, { status: 'waiting', time: 2_000 });
      const [summary] = await service().list({ appName: 'app', userId: 'u1' });
      expect(summary).toMatchObject({ status: 'waiting', statusTime: 2_000, turns: 1 });
    });

    it('an expected status that does not hold changes nothing and is a typed error', async () => {
      const key = await session(service(), 'u1', 's1');
      await expectAdkError(
        service().setStatus(key, { status: 'idle', expect: ['running'] }),
        'SESSION_STATUS',
      );
      await service().setStatus(key, { status: 'finished' });
      await expectAdkError(
        service().setStatus(key, { status: 'running', expect: ['idle', 'waiting'], countTurn: true }),
        'SESSION_FINISHED',
      );
      expect(await service().get(key)).toMatchObject({ status: 'finished', turns: 0 });
      await expectAdkError(
        service().setStatus({ ...key, sessionId: 'nope' }, { status: 'idle' }),
        'SESSION_NOT_FOUND',
      );
      await expectAdkError(service().setStatus(key, { status: 'sleeping' as 'idle' }), 'INVALID_ARGUMENT');
    });

    it('of concurrent compare-and-sets from one status exactly one wins', async () => {
      const key = await session(service(), 'u1', 's1');
      await service().setStatus(key, { status: 'running' });
      await service().setStatus(key, { status: 'waiting' });
      const results = await Promise.allSettled(
        Array.from({ length: 8 }, () => service().setStatus(key, { status: 'running', expect: ['waiting'] })),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    });

    it('lists sessions by status, for one user or every user of the app', async () => {
      const a = await session(service(), 'u1', 'a');
      const b = await session(service(), 'u2', 'b');
      await session(service(), 'u2', 'c');
      for (const waiting of [a, b]) {
        await service().setStatus(waiting, { status: 'running' });
        await service().setStatus(waiting, { status: 'waiting' });
      }
      const ids = (list: { sessionId: string }[]) => list.map((s) => s.sessionId).sort();
      expect(ids(await service().list({ appName: 'app', status: 'waiting' }))).toEqual(['a', 'b']);
      expect(ids(await service().list({ appName: 'app', userId: 'u2', status: 'waiting' }))).toEqual(['b']);
      expect(ids(await service().list({ appName: 'app', status: ['idle', 'failed'] }))).toEqual(['c']);
      expect(ids(await service().list({ appName: 'app' }))).toEqual(['a', 'b', 'c']);
      expect(await service().list({ appName: 'other', status: 'waiting' })).toEqual([]);
    });
  });

  describe('session status through a Runner', () => {
    const runnerFor = (
      replies: ConstructorParameters<typeof ScriptedChatModel>[0],
      timeout?: WaitingTimeout,
    ) => {
      const refund = tool({
        name: 'refund',
        description: 'Refund an order',
        parameters: z.object({ order: z.string() }),
        needsApproval: true,
        execute: ({ order }) => `refunded ${order}`,
      });
      const agent = new ChatModelAgent({
        name: 'desk',
        model: new ScriptedChatModel(replies),
        tools: [refund],
      });
      return new Runner({
        agent,
        sessionService: service(),
        checkpointer: checkpointer() ?? new MemoryCheckpointer(),
        appName: 'status-app',
        streaming: false,
        ...(timeout ? { waitingTimeout: timeout } : {}),
      });
    };
    const key = { appName: 'status-app', userId: 'u1', sessionId: 's1' };
    const ref = { userId: 'u1', sessionId: 's1' };
    const refundCall = { toolCalls: [{ id: 'r1', name: 'refund', arguments: { order: '42' } }] };

    it('runs idle → running → idle, counts turns, waits for a human, and refuses turns once finished', async () => {
      const runner = runnerFor(['Hello.', refundCall, 'Refunded order 42.']);
      await drain(runner.run({ ...ref, message: 'Hi' }));
      expect(await service().get(key)).toMatchObject({ status: 'idle', turns: 1 });
      await drain(runner.run({ ...ref, message: 'Refund order 42' }));
      expect(await service().get(key)).toMatchObject({ status: 'waiting', turns: 2 });
      await drain(runner.resume({ ...ref, decisions: true }));
      expect(await service().get(key)).toMatchObject({ status: 'idle', turns: 2 });
      await runner.finish(ref);
      await expectAdkError(drain(runner.run({ ...ref, message: 'More?' })), 'SESSION_FINISHED');
      await expectAdkError(drain(runner.resume(ref)), 'SESSION_FINISHED');
      expect(await service().get(key)).toMatchObject({ status: 'finished', turns: 2 });
    });

    it('stores running before the turn starts and failed when it throws', async () => {
      let during: unknown;
      const runner = runnerFor(async () => {
        during = (await service().get(key))?.status;
        throw new Error('model down');
      });
      await expect(drain(runner.run({ ...ref, message: 'Hi' }))).rejects.toThrow();
      expect(during).toBe('running');
      expect(await service().get(key)).toMatchObject({ status: 'failed', turns: 1 });
      await expect(drain(runner.run({ ...ref, message: 'Again' }))).rejects.toThrow();
      expect(await service().get(key)).toMatchObject({ status: 'failed', turns: 2 });
    });

    it('a safe-point cancel leaves the session paused; resume continues it; an idle session has nothing to resume', async () => {
      let runner!: Runner;
      const stopAfterFirstCall: AgentMiddleware = {
        beforeModel: (_request, ctx) => {
          if (ctx.iteration === 0) runner.cancel(ref, { mode: 'afterModel' });
        },
      };
      const lookup = tool({
        name: 'lookup',
        description: 'Looks an order up',
        parameters: z.object({ order: z.string() }),
        execute: ({ order }) => `order ${order} shipped`,
      });
      const agent = new ChatModelAgent({
        name: 'desk',
        model: new ScriptedChatModel([
          { toolCalls: [{ id: 'l1', name: 'lookup', arguments: { order: '7' } }] },
          'It shipped.',
        ]),
        tools: [lookup],
        middleware: [stopAfterFirstCall],
      });
      runner = new Runner({
        agent,
        sessionService: service(),
        checkpointer: checkpointer() ?? new MemoryCheckpointer(),
        appName: 'status-app',
        streaming: false,
      });
      const stopped = await drain(runner.run({ ...ref, message: 'Where is order 7?' }));
      expect(stopped.at(-1)?.interrupts?.[0]?.value).toEqual({ type: 'cancelled', at: 'afterModel' });
      expect(await service().get(key)).toMatchObject({ status: 'paused', turns: 1 });
      const resumed = await drain(runner.resume(ref));
      expect(resumed.filter((e) => e.message?.role === 'assistant').map((e) => e.message?.content)).toEqual([
        'It shipped.',
      ]);
      expect(await service().get(key)).toMatchObject({ status: 'idle', turns: 1 });
      const stored = (await service().get(key))?.events.length;
      await expectAdkError(drain(runner.resume(ref)), 'NOT_RESUMABLE');
      expect(await service().get(key)).toMatchObject({ status: 'idle', turns: 1 });
      expect((await service().get(key))?.events.length).toBe(stored);
    });

    it('a waiting timeout cancels the pause: the session is idle again and takes new turns', async () => {
      const runner = runnerFor([refundCall, 'Starting over.'], { afterMs: 60_000, action: 'cancel' });
      await drain(runner.run({ ...ref, message: 'Refund order 42' }));
      const since = (await service().get(key))?.statusTime ?? 0;
      expect(await runner.expireWaiting({ now: since + 59_999 })).toEqual([]);
      expect(await runner.expireWaiting({ now: since + 60_000 })).toEqual([{ ...ref, action: 'cancelled' }]);
      const after = await service().get(key);
      expect(after).toMatchObject({ status: 'idle' });
      expect(after?.events.at(-1)?.error?.code).toBe('WAIT_EXPIRED');
      await drain(runner.run({ ...ref, message: 'Never mind' }));
      expect(await service().get(key)).toMatchObject({ status: 'idle', turns: 2 });
    });

    it('a waiting timeout resumes the turn with the default answer', async () => {
      const timeout: WaitingTimeout = {
        afterMs: 1_000,
        action: { resume: { approved: false, reason: 'no answer' } },
      };
      const runner = runnerFor([refundCall, 'I could not refund it without approval.'], timeout);
      await drain(runner.run({ ...ref, message: 'Refund order 42' }));
      const since = (await service().get(key))?.statusTime ?? 0;
      expect(await runner.expireWaiting({ now: since + 1_000 })).toEqual([{ ...ref, action: 'resumed' }]);
      const after = await service().get(key);
      expect(after).toMatchObject({ status: 'idle', turns: 1 });
      const rejected = after?.events.find((e) => e.message?.role === 'tool');
      expect(JSON.stringify(rejected?.message)).toContain('no answer');
      expect(await runner.expireWaiting({ now: since + 10_000 })).toEqual([]);
    });
  });
}
