import type { AgentEvent } from '../event/agent-event.js';
import { eventId } from '../internal/event-id.js';
import type { Message } from '../message/message.js';
import type { SessionKey, SessionService } from '../session/session.js';

/**
 * The session state key a `TurnLoop` keeps its queue under (reserved).
 *
 * @example
 * ```ts
 * const sessions = new MemorySessionService();
 * const session = await sessions.create({ appName: 'shop', userId: 'u1', sessionId: 's1' });
 * const saved = session.state[TURN_LOOP_KEY] as TurnLoopState | undefined; // undefined: no loop ran yet
 * ```
 */
export const TURN_LOOP_KEY = '__turn_loop__';

/**
 * Something pushed to a `TurnLoop`: a user message or an external event, handled as one turn.
 *
 * @example
 * ```ts
 * const item: TurnItem = { id: 'item-1', message: 'Hi!', urgent: false, source: 'user' };
 * ```
 */
export interface TurnItem {
  readonly id: string;
  readonly message: Message | string;
  /** Preempts the running turn and goes before the other waiting items. */
  readonly urgent: boolean;
  readonly source: 'user' | 'event';
}

/**
 * What a `TurnLoop` persists in the session: the items not handled yet, and the turn that was running
 * (resumed after a restart; `waiting` when it paused for a human).
 *
 * @example
 * ```ts
 * const item: TurnItem = { id: 'item-1', message: 'Hi!', urgent: false, source: 'user' };
 * const saved: TurnLoopState = { queue: [], running: { ...item, waiting: true } };
 * ```
 */
export interface TurnLoopState {
  readonly queue: readonly TurnItem[];
  readonly running?: RunningTurn;
}

/**
 * The turn a `TurnLoop` is running: its item, whether it waits for a human, and the decisions to resume
 * it with.
 *
 * @example
 * ```ts
 * const item: TurnItem = { id: 'item-1', message: 'Hi!', urgent: false, source: 'user' };
 * const turn: RunningTurn = { ...item, waiting: false, resume: { call_1: true } };
 * ```
 */
export type RunningTurn = TurnItem & { readonly waiting?: boolean; readonly resume?: unknown };

/**
 * Reads and writes a loop's state in the session, one write at a time (each write is an event by the
 * author `turn-loop` whose state delta holds the whole state, so any session service persists it).
 *
 * @example
 * ```ts
 * const sessions = new MemorySessionService();
 * const key = { appName: 'shop', userId: 'u1', sessionId: 's1' };
 * await sessions.create(key);
 * const item: TurnItem = { id: 'item-1', message: 'Hi!', urgent: false, source: 'user' };
 * const store = new TurnQueueStore(sessions, key);
 * await store.save({ queue: [item] });
 * ```
 */
export class TurnQueueStore {
  #writes: Promise<void> = Promise.resolve();

  constructor(
    private readonly sessions: SessionService,
    private readonly key: SessionKey,
  ) {}

  /** Loads the saved state (creating the session when it does not exist). */
  async load(): Promise<TurnLoopState> {
    const session =
      (await this.sessions.get(this.key, { recentEvents: 0 })) ?? (await this.sessions.create(this.key));
    const saved = session.state[TURN_LOOP_KEY] as TurnLoopState | undefined;
    return saved ?? { queue: [] };
  }

  /** Saves the state after the writes before it. */
  save(state: TurnLoopState): Promise<void> {
    const event: AgentEvent = {
      id: eventId(),
      invocationId: 'turn-loop',
      author: 'turn-loop',
      timestamp: Date.now(),
      actions: { stateDelta: { [TURN_LOOP_KEY]: state } },
    };
    const write = this.#writes.then(async () => {
      await this.sessions.appendEvent(this.key, event);
    });
    this.#writes = write.catch(() => undefined);
    return write;
  }
}
