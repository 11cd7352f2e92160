import { type Checkpointer, MemoryCheckpointer } from '@weft/compose';
import { describe, expect, it } from 'vitest';
import { ChatModelAgent } from '../../agent/chat-model-agent.js';
import { messageText } from '../../message/message-text.js';
import { Runner } from '../../runner/runner.js';
import type { SessionKey } from '../../session/session.js';
import { drain } from '../drain.js';
import { ScriptedChatModel } from '../scripted-chat-model.js';
import { event, expectAdkError, type SessionServiceAccessor, stateOf } from './session-fixtures.js';

/**
 * Pairs of keys that a key joined with `/` (or percent-escaped once) would confuse: each pair must name
 * two different sessions (and different users, for the `user:` scope).
 */
const CONFUSABLE: ReadonlyArray<readonly [SessionKey, SessionKey]> = [
  [
    { appName: 'app', userId: 'a', sessionId: 'b/c' },
    { appName: 'app', userId: 'a/b', sessionId: 'c' },
  ],
  [
    { appName: 'x/y', userId: 'z', sessionId: 's' },
    { appName: 'x', userId: 'y/z', sessionId: 's' },
  ],
  [
    { appName: 'app', userId: 'a%2Fb', sessionId: 'd' },
    { appName: 'app', userId: 'a/b', sessionId: 'd' },
  ],
  [
    { appName: 'app', userId: 'ü/"', sessionId: '日本' },
    { appName: 'app', userId: 'ü', sessionId: '"/日本' },
  ],
];

/**
 * Conformance cases for keeping apps, users and sessions apart whatever their ids hold (`/`, `%`,
 * quotes, unicode), in the service and in the checkpoint threads a `Runner` derives from them;
 * empty ids are refused.
 *
 * @example
 * ```ts
 * import { beforeEach } from 'vitest';
 * let service = new MemorySessionService();
 * beforeEach(() => {
 *   service = new MemorySessionService(); // a fresh, empty service for each test
 * });
 * describeIsolationCases(() => service, () => undefined); // no checkpointer of the same store to check
 * ```
 */
export function describeIsolationCases(
  service: SessionServiceAccessor,
  checkpointer: () => Checkpointer | undefined,
): void {
  describe('keeping users apart, whatever their ids hold', () => {
    it('stores sessions with confusable ids apart, with their own session and user state', async () => {
      for (const [index, [left, right]] of CONFUSABLE.entries()) {
        await service().create({ ...left, state: { owner: 'left', 'user:who': 'left' } });
        await service().create({ ...right, state: { owner: 'right', 'user:who': 'right' } });
        await service().appendEvent(left, event(`left-${index}`, { text: 'left secret' }));
        expect(await stateOf(service(), left)).toMatchObject({ owner: 'left', 'user:who': 'left' });
        expect(await stateOf(service(), right)).toMatchObject({ owner: 'right', 'user:who': 'right' });
        const events = (await service().get(right))?.events ?? [];
        expect(events.map((e) => e.id)).not.toContain(`left-${index}`);
        const listed = await service().list({ appName: right.appName, userId: right.userId });
        expect(listed.map((s) => s.sessionId)).toContain(right.sessionId);
        for (const summary of listed)
          expect(summary).toMatchObject({ appName: right.appName, userId: right.userId });
      }
    });

    it('refuses empty app, user and session ids', async () => {
      await expectAdkError(service().create({ appName: '', userId: 'u' }), 'INVALID_ARGUMENT');
      await expectAdkError(service().create({ appName: 'app', userId: '' }), 'INVALID_ARGUMENT');
      await expectAdkError(
        service().create({ appName: 'app', userId: 'u', sessionId: '' }),
        'INVALID_ARGUMENT',
      );
    });

    it("a Runner never shows one user's conversation to a user with a confusable id", async () => {
      const store = checkpointer() ?? new MemoryCheckpointer();
      for (const [index, [left, right]] of CONFUSABLE.entries()) {
        const model = new ScriptedChatModel(['noted', 'hello']);
        const agent = new ChatModelAgent({ name: 'keeper', model });
        const runner = new Runner({
          agent,
          sessionService: service(),
          checkpointer: store,
          appName: left.appName,
        });
        const other = new Runner({
          agent,
          sessionService: service(),
          checkpointer: store,
          appName: right.appName,
        });
        await drain(runner.run({ ...left, message: `my secret is ${index}` }));
        await drain(other.run({ ...right, message: 'what do you know?' }));
        const seen = (model.calls[1]?.messages ?? []).map((m) => messageText(m)).join('\n');
        expect(seen).not.toContain('secret');
        expect(seen).toContain('what do you know?');
      }
    });
  });
}
