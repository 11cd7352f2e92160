import { AdkError } from '../errors/adk-error.js';

/**
 * Where a session is in its life:
 * - `idle` — no turn runs and nothing waits; a new message starts one (new sessions, finished turns, a
 *   pause dropped by the waiting timeout);
 * - `running` — a turn runs (set and stored before the turn starts, so a session whose process died
 *   shows `running` and is resumed by `runner.resume`);
 * - `waiting` — a turn paused for an answer (a tool approval, `interrupt()`, a pending long-running tool);
 * - `paused` — a turn stopped by a cancel (at a safe point or at once): `runner.resume` continues it;
 * - `failed` — the last turn failed; a new message or a resume may retry;
 * - `finished` — closed by `runner.finish`; nothing leaves it (`SESSION_FINISHED`).
 *
 * Every session service enforces the moves of {@link SESSION_TRANSITIONS}.
 *
 * @example
 * ```ts
 * const sessions = new MemorySessionService();
 * const waiting = await sessions.list({ appName: 'shop', status: 'waiting' }); // summaries of sessions that wait
 * ```
 */
export type SessionStatus = 'idle' | 'running' | 'waiting' | 'paused' | 'finished' | 'failed';

/** Every {@link SessionStatus}, in life order. */
export const SESSION_STATUSES: readonly SessionStatus[] = [
  'idle',
  'running',
  'waiting',
  'paused',
  'failed',
  'finished',
];

/**
 * The moves a session may make, by the status it is in: a turn starts from any open status (`running`
 * again too — a turn whose process died is claimed anew); a running turn ends `idle`, `waiting`,
 * `paused` or `failed`; a wait may be dropped (`idle`); any open session may be finished; nothing leaves
 * `finished`. Every session service refuses the other moves with a `SessionStatusError`.
 *
 * @example
 * ```ts
 * SESSION_TRANSITIONS.paused; // ['running', 'finished']
 * ```
 */
export const SESSION_TRANSITIONS: Readonly<Record<SessionStatus, readonly SessionStatus[]>> = {
  idle: ['running', 'finished'],
  running: ['running', 'idle', 'waiting', 'paused', 'failed', 'finished'],
  waiting: ['running', 'idle', 'finished'],
  paused: ['running', 'finished'],
  failed: ['running', 'finished'],
  finished: [],
};

/**
 * The status fields every stored session carries.
 *
 * @example
 * ```ts
 * const sessions = new MemorySessionService();
 * const key = { appName: 'shop', userId: 'u1', sessionId: 's1' };
 * await sessions.create(key);
 * const { status, statusTime, turns } = (await sessions.get(key))!; // 'idle', now, 0
 * ```
 */
export interface SessionStatusInfo {
  readonly status: SessionStatus;
  /** When the status was last set (ms since the epoch): for a `waiting` session, since when it waits. */
  readonly statusTime: number;
  /** User turns started (a resume continues a turn and does not count). */
  readonly turns: number;
}

/**
 * A status change for `SessionService.setStatus`.
 *
 * @example
 * ```ts
 * const sessions = new MemorySessionService();
 * const key = { appName: 'shop', userId: 'u1', sessionId: 's1' };
 * await sessions.create(key);
 * await sessions.setStatus(key, { status: 'running', expect: ['idle', 'waiting', 'failed'], countTurn: true });
 * ```
 */
export interface SessionStatusChange {
  readonly status: SessionStatus;
  /** Change only from one of these; otherwise a `SessionStatusError` and nothing changes. */
  readonly expect?: readonly SessionStatus[];
  /** Counts a new user turn. */
  readonly countTurn?: boolean;
  /** The time stored as `statusTime` (default now). */
  readonly time?: number;
}

/**
 * Which sessions `SessionService.list` returns.
 *
 * @example
 * ```ts
 * const query: SessionStatusQuery = { appName: 'shop', status: ['waiting', 'failed'] };
 * ```
 */
export interface SessionStatusQuery {
  readonly appName: string;
  /** One user's sessions (default: every user's). */
  readonly userId?: string;
  /** Only sessions in this status, or in one of these. */
  readonly status?: SessionStatus | readonly SessionStatus[];
}

/**
 * A session was not in the status an operation expects: `SESSION_FINISHED` when it is finished (it
 * takes no new turns), `SESSION_STATUS` otherwise.
 *
 * @example
 * ```ts
 * const sessions = new MemorySessionService();
 * const key = { appName: 'shop', userId: 'u1', sessionId: 's1' };
 * await sessions.create(key);
 * await sessions.setStatus(key, { status: 'finished' });
 * try {
 *   await sessions.setStatus(key, { status: 'running', expect: ['idle'] });
 * } catch (error) {
 *   if (SessionStatusError.isInstance(error) && error.code === 'SESSION_FINISHED') await sessions.create({ appName: 'shop', userId: 'u1' });
 * }
 * ```
 */
export class SessionStatusError extends AdkError {
  override readonly name = 'SessionStatusError';

  /**
   * @param expected The statuses the operation accepts (or, for a move the state machine forbids, the
   *   statuses the target is reached from).
   * @param options `to`: the status a forbidden move aimed at; `hint`: what to do instead.
   */
  constructor(
    readonly sessionId: string,
    readonly status: SessionStatus,
    readonly expected: readonly SessionStatus[],
    options: { readonly to?: SessionStatus; readonly hint?: string } = {},
  ) {
    super(
      status === 'finished' ? 'SESSION_FINISHED' : 'SESSION_STATUS',
      statusMessage(sessionId, status, expected, options),
    );
  }

  /** True for a status error, even one thrown by another copy of this package. */
  static override isInstance(value: unknown): value is SessionStatusError {
    return (
      AdkError.isInstance(value) && (value.code === 'SESSION_FINISHED' || value.code === 'SESSION_STATUS')
    );
  }
}

function statusMessage(
  sessionId: string,
  status: SessionStatus,
  expected: readonly SessionStatus[],
  options: { readonly to?: SessionStatus; readonly hint?: string },
): string {
  const hint = options.hint ? `; ${options.hint}` : '';
  if (status === 'finished')
    return `session "${sessionId}" is finished and takes no new turns; start a new session${hint}`;
  if (options.to !== undefined)
    return `session "${sessionId}" is ${status} and cannot become ${options.to} (${options.to} is reached from ${expected.join(' or ') || 'nowhere'})${hint}`;
  return `session "${sessionId}" is ${status}, expected ${expected.join(' or ')}${hint}`;
}

/**
 * Applies a status change to a stored status — the rule every session service follows inside its own
 * transaction: the compare-and-set (`change.expect`), then the state machine ({@link SESSION_TRANSITIONS}).
 *
 * @throws SessionStatusError `SESSION_FINISHED` for any change of a finished session; `SESSION_STATUS`
 *   when `change.expect` does not hold the current status or the move is not one of the machine's.
 * @throws AdkError `INVALID_ARGUMENT` for an unknown status.
 * @example
 * ```ts
 * const next = applyStatusChange('s1', { status: 'idle', statusTime: 0, turns: 0 }, { status: 'running', countTurn: true });
 * // { status: 'running', statusTime: Date.now(), turns: 1 }
 * ```
 */
export function applyStatusChange(
  sessionId: string,
  current: SessionStatusInfo,
  change: SessionStatusChange,
): SessionStatusInfo {
  assertStatus(change.status);
  if (change.expect && !change.expect.includes(current.status))
    throw new SessionStatusError(sessionId, current.status, change.expect);
  if (!SESSION_TRANSITIONS[current.status].includes(change.status)) {
    const from = SESSION_STATUSES.filter((status) => SESSION_TRANSITIONS[status].includes(change.status));
    throw new SessionStatusError(sessionId, current.status, from, { to: change.status });
  }
  return {
    status: change.status,
    statusTime: change.time ?? Date.now(),
    turns: current.turns + (change.countTurn ? 1 : 0),
  };
}

/**
 * The statuses a list query asks for (`undefined`: all).
 *
 * @throws AdkError `INVALID_ARGUMENT` for an unknown status.
 * @example
 * ```ts
 * statusFilter({ appName: 'a', status: 'waiting' }); // ['waiting']
 * ```
 */
export function statusFilter(query: SessionStatusQuery): readonly SessionStatus[] | undefined {
  if (query.status === undefined) return undefined;
  const statuses = typeof query.status === 'string' ? [query.status] : query.status;
  for (const status of statuses) assertStatus(status);
  return statuses;
}

function assertStatus(status: string): asserts status is SessionStatus {
  if (!(SESSION_STATUSES as readonly string[]).includes(status))
    throw new AdkError(
      'INVALID_ARGUMENT',
      `unknown session status "${status}"; use one of ${SESSION_STATUSES.join(', ')}`,
    );
}
