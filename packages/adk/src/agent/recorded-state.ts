import type { SessionState } from '../tool/session-state.js';
import { InvocationState } from './invocation-state.js';

/** One state write of a tool call: a value, or `deleted` for a removed key. */
export type StateWrite = readonly [key: string, value: unknown, deleted?: true];

/**
 * A tool call's view of the node's session state: reads and writes go to `inner`, and every write is
 * also recorded, so a call replayed from a pause (`ctx.once`) can apply the same writes again.
 */
export class RecordedState implements SessionState {
  readonly writes: StateWrite[] = [];

  constructor(private readonly inner: InvocationState) {}

  /** Everything visible, as a plain object (see `InvocationState.snapshot`). */
  snapshot(): Record<string, unknown> {
    return this.inner.snapshot();
  }

  get(key: string): unknown {
    return this.inner.get(key);
  }

  set(key: string, value: unknown): void {
    this.inner.set(key, value);
    this.writes.push([key, value]);
  }

  has(key: string): boolean {
    return this.inner.has(key);
  }

  delete(key: string): void {
    this.inner.delete(key);
    this.writes.push([key, undefined, true]);
  }
}

/** Applies recorded writes to `state`, in order. */
export function replayWrites(state: SessionState, writes: readonly StateWrite[]): void {
  for (const [key, value, deleted] of writes) {
    if (deleted) state.delete(key);
    else state.set(key, value);
  }
}

/**
 * Everything a tool's state shows, as a plain object, when the tool runs in an agent's tool node (the
 * invocation's view: the session plus what this invocation wrote so far); `undefined` for other states.
 */
export function invocationSnapshot(state: SessionState): Record<string, unknown> | undefined {
  return state instanceof InvocationState || state instanceof RecordedState ? state.snapshot() : undefined;
}
