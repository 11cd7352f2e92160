import { expect } from 'vitest';
import { AdkError, type AdkErrorCode } from '../../errors/adk-error.js';
import type { AgentEvent } from '../../event/agent-event.js';
import type { SessionKey, SessionService } from '../../session/session.js';

/**
 * Returns the service under test (the suite creates a fresh one before each test).
 *
 * @example
 * ```ts
 * let current = new MemorySessionService(); // replaced by a fresh one before each test
 * const service: SessionServiceAccessor = () => current;
 * ```
 */
export type SessionServiceAccessor = () => SessionService;

/**
 * A time well after any session's creation (one hour from when the suite loaded), so events stamped
 * from it are newer than the initial state `create` writes.
 *
 * @example
 * ```ts
 * event('0001', { timestamp: LATER + 1 });
 * ```
 */
export const LATER = Date.now() + 3_600_000;

/**
 * Options of {@link event}.
 *
 * @example
 * ```ts
 * const options: EventOptions = { timestamp: LATER + 1, delta: { cart: [] }, text: 'hello' };
 * ```
 */
export interface EventOptions {
  readonly timestamp?: number;
  readonly delta?: Readonly<Record<string, unknown>>;
  readonly partial?: boolean;
  readonly text?: string;
}

/**
 * Builds an agent event for the conformance cases (timestamp {@link LATER} unless given).
 *
 * @example
 * ```ts
 * const sessions = new MemorySessionService();
 * const key = await session(sessions, 'u1', 's1', { cart: [] });
 * await sessions.appendEvent(key, event('0001', { delta: { cart: ['apple'] } }));
 * ```
 */
export function event(id: string, options: EventOptions = {}): AgentEvent {
  return {
    id,
    invocationId: 'invocation-1',
    author: 'agent',
    timestamp: options.timestamp ?? LATER,
    actions: options.delta === undefined ? {} : { stateDelta: options.delta },
    ...(options.partial === undefined ? {} : { partial: options.partial }),
    ...(options.text === undefined ? {} : { message: { role: 'assistant', content: options.text } }),
  };
}

/**
 * Creates a session with the given state and returns its key.
 *
 * @example
 * ```ts
 * const key = await session(new MemorySessionService(), 'u1', 's1', { cart: [] }); // { appName, userId: 'u1', sessionId: 's1' }
 * ```
 */
export async function session(
  service: SessionService,
  userId: string,
  sessionId: string,
  state?: Readonly<Record<string, unknown>>,
): Promise<SessionKey> {
  const created = await service.create({
    appName: 'app',
    userId,
    sessionId,
    ...(state === undefined ? {} : { state }),
  });
  return { appName: created.appName, userId: created.userId, sessionId: created.sessionId };
}

/**
 * The merged state of a session (`{}` when it does not exist).
 *
 * @example
 * ```ts
 * import { expect } from 'vitest';
 * const sessions = new MemorySessionService();
 * const key = await session(sessions, 'u1', 's1', { cart: [] });
 * expect(await stateOf(sessions, key)).toEqual({ cart: [] });
 * ```
 */
export async function stateOf(service: SessionService, key: SessionKey): Promise<Record<string, unknown>> {
  return { ...(await service.get(key))?.state };
}

/**
 * Asserts that `promise` rejects with an {@link AdkError} of the given code.
 *
 * @example
 * ```ts
 * const missing = { appName: 'shop', userId: 'u1', sessionId: 'nobody' };
 * await expectAdkError(new MemorySessionService().appendEvent(missing, event('1')), 'SESSION_NOT_FOUND');
 * ```
 */
export async function expectAdkError(promise: Promise<unknown>, code: AdkErrorCode): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(AdkError.isInstance(error) ? error.code : error).toBe(code);
}
