import { AdkError } from '../errors/adk-error.js';
import type { AgentEvent } from '../event/agent-event.js';
import { eventId } from '../internal/event-id.js';
import type { SessionKey, SessionService } from '../session/session.js';
import { type SessionStatus, SessionStatusError } from '../session/session-status.js';
import type { InvocationOutcome } from './invocation.js';

/** The statuses a new message may start a turn from: all but `finished`. */
const OPEN: readonly SessionStatus[] = ['idle', 'running', 'waiting', 'paused', 'failed'];

/**
 * The statuses a resume may continue from: a pause (`waiting`, `paused`), a turn whose process died
 * (`running`) or a failed one. An `idle` session has nothing to resume — unless the resume names the
 * checkpoint to continue from (time travel, a fork's new session branch).
 */
const RESUMABLE: readonly SessionStatus[] = ['running', 'waiting', 'paused', 'failed'];

/**
 * Refuses a resume the session's status rules out, before anything runs or is stored.
 *
 * @throws AdkError `NOT_RESUMABLE` for an idle session resumed without a `checkpointId` (its last turn
 *   ended, or its pause was dropped); `SessionStatusError` `SESSION_FINISHED` for a finished one.
 * @example
 * ```ts
 * const sessions = new MemorySessionService();
 * const session = await sessions.create({ appName: 'shop', userId: 'u1', sessionId: 's1' });
 * assertResumable(session, { fromCheckpoint: false }); // throws: the session is idle, nothing to resume
 * ```
 */
export function assertResumable(
  session: { readonly sessionId: string; readonly status: SessionStatus },
  options: { readonly fromCheckpoint: boolean },
): void {
  if (session.status === 'finished') throw new SessionStatusError(session.sessionId, 'finished', RESUMABLE);
  if (session.status === 'idle' && !options.fromCheckpoint)
    throw nothingToResume(session.sessionId, 'it is idle');
}

/**
 * The error of a resume that has nothing to continue.
 *
 * @example
 * ```ts
 * const error = nothingToResume('s1', 'it is idle'); // AdkError NOT_RESUMABLE
 * ```
 */
export function nothingToResume(sessionId: string, why: string): AdkError {
  return new AdkError(
    'NOT_RESUMABLE',
    `session "${sessionId}" has nothing to resume (${why}); send a new message instead`,
  );
}

/**
 * Stores the move to `running` before a turn (or a resume) starts; a new message counts a turn. A
 * resume is refused for a session with nothing to resume (`idle`, unless it names a checkpoint).
 *
 * @throws SessionStatusError `SESSION_FINISHED` when the session is finished; AdkError `NOT_RESUMABLE`
 *   for a resume of an idle session.
 * @example
 * ```ts
 * const sessions = new MemorySessionService();
 * const key = { appName: 'shop', userId: 'u1', sessionId: 's1' };
 * await sessions.create(key);
 * await beginTurn(sessions, key, { resuming: false }); // 'running', one more turn
 * ```
 */
export async function beginTurn(
  service: SessionService,
  key: SessionKey,
  options: { readonly resuming: boolean; readonly fromCheckpoint?: boolean },
): Promise<void> {
  const strict = options.resuming && options.fromCheckpoint !== true;
  try {
    await service.setStatus(key, {
      status: 'running',
      expect: strict ? RESUMABLE : OPEN,
      countTurn: !options.resuming,
    });
  } catch (error) {
    // The compare-and-set lost to a change made since the session was read: say why a resume failed.
    if (strict && SessionStatusError.isInstance(error) && error.status === 'idle')
      throw nothingToResume(key.sessionId, 'it is idle');
    throw error;
  }
}

/**
 * Stores how a turn ended: `waiting` when it paused for an answer, `paused` when a cancel stopped it
 * (resumable), `failed` when it threw, `idle` otherwise. A session finished meanwhile stays finished.
 *
 * @example
 * ```ts
 * const sessions = new MemorySessionService();
 * const key = { appName: 'shop', userId: 'u1', sessionId: 's1' };
 * await sessions.create(key);
 * await beginTurn(sessions, key, { resuming: false });
 * await endTurn(sessions, key, 'waiting'); // waits for a person's decision
 * ```
 */
export async function endTurn(
  service: SessionService,
  key: SessionKey,
  outcome: InvocationOutcome | 'failed',
): Promise<void> {
  const status: SessionStatus =
    outcome === 'waiting'
      ? 'waiting'
      : outcome === 'failed'
        ? 'failed'
        : outcome === 'cancelled'
          ? 'paused'
          : 'idle';
  try {
    await service.setStatus(key, { status, expect: ['running'] });
  } catch (error) {
    if (!SessionStatusError.isInstance(error)) throw error;
  }
}

/**
 * How long a session may wait for a human, and what happens then: `cancel` (the pause is dropped: the
 * session goes back to `idle` with a `WAIT_EXPIRED` event; a new message starts afresh) or
 * `{ resume: answer }` (the turn is resumed with `answer` for every pending pause).
 *
 * @example
 * ```ts
 * const timeout: WaitingTimeout = { afterMs: 24 * 3_600_000, action: { resume: { approved: false, reason: 'no answer' } } };
 * ```
 */
export interface WaitingTimeout {
  readonly afterMs: number;
  readonly action: 'cancel' | { readonly resume: unknown };
}

/**
 * A session {@link expireWaitingSessions} acted on.
 *
 * @example
 * ```ts
 * const expired: ExpiredSession = { userId: 'u1', sessionId: 's1', action: 'resumed' };
 * ```
 */
export interface ExpiredSession {
  readonly userId: string;
  readonly sessionId: string;
  readonly action: 'cancelled' | 'resumed';
  /** Why the resumed turn failed, if it did. */
  readonly error?: unknown;
}

/** What {@link expireWaitingSessions} needs of a runner. */
export interface ExpiryArgs {
  readonly service: SessionService;
  readonly appName: string;
  readonly agentName: string;
  readonly timeout: WaitingTimeout;
  readonly now: number;
  /** Resumes a session (the runner's `resume`). */
  readonly resume: (key: SessionKey, decisions: unknown) => AsyncIterable<AgentEvent>;
}

/**
 * Acts on every session of the app that has waited longer than `timeout.afterMs`: the move out of
 * `waiting` is a compare-and-set, so of several processes sweeping at once only one acts on a session.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const agent = new ChatModelAgent({ name: 'desk', model: new ScriptedChatModel(['Hello!']) });
 * const sessionService = new MemorySessionService();
 * const runner = new Runner({ agent, sessionService, appName: 'shop' });
 * const timeout: WaitingTimeout = { afterMs: 3_600_000, action: 'cancel' };
 * const expired = await expireWaitingSessions({
 *   service: sessionService,
 *   appName: 'shop',
 *   agentName: 'desk',
 *   timeout,
 *   now: Date.now(),
 *   resume: (key, decisions) => runner.resume({ userId: key.userId, sessionId: key.sessionId, decisions }),
 * }); // [] while no session waits
 * ```
 */
export async function expireWaitingSessions(args: ExpiryArgs): Promise<ExpiredSession[]> {
  const waiting = await args.service.list({ appName: args.appName, status: 'waiting' });
  const expired: ExpiredSession[] = [];
  for (const summary of waiting) {
    if (summary.statusTime + args.timeout.afterMs > args.now) continue;
    const key: SessionKey = { appName: args.appName, userId: summary.userId, sessionId: summary.sessionId };
    const { action } = args.timeout;
    const moved = await claim(args.service, key, action === 'cancel' ? 'idle' : 'running');
    if (!moved) continue;
    const ref = { userId: key.userId, sessionId: key.sessionId };
    if (action === 'cancel') {
      await args.service.appendEvent(key, {
        id: eventId(),
        invocationId: eventId('inv'),
        author: args.agentName,
        timestamp: Date.now(),
        actions: {},
        turnComplete: true,
        error: {
          code: 'WAIT_EXPIRED',
          message: `no answer within ${args.timeout.afterMs} ms; the pause was cancelled`,
        },
      });
      expired.push({ ...ref, action: 'cancelled' });
      continue;
    }
    const decisions = await answerEveryPause(args.service, key, action.resume);
    try {
      for await (const _ of args.resume(key, decisions));
      expired.push({ ...ref, action: 'resumed' });
    } catch (error) {
      expired.push({ ...ref, action: 'resumed', error });
    }
  }
  return expired;
}

async function claim(service: SessionService, key: SessionKey, status: SessionStatus): Promise<boolean> {
  try {
    await service.setStatus(key, { status, expect: ['waiting'] });
    return true;
  } catch (error) {
    if (SessionStatusError.isInstance(error)) return false;
    throw error;
  }
}

/** The default answer for one pending pause, or `{ [id]: answer }` for several (from the last turn's event). */
async function answerEveryPause(service: SessionService, key: SessionKey, answer: unknown): Promise<unknown> {
  const session = await service.get(key, { recentEvents: 1 });
  const pending = session?.events.at(-1)?.interrupts ?? [];
  if (pending.length <= 1) return answer;
  return Object.fromEntries(pending.map((p) => [p.id, answer]));
}
