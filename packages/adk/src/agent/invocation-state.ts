import { TEMP_PREFIX } from '../session/session.js';
import type { SessionState } from '../tool/session-state.js';

/**
 * Session state as an agent node sees it: the session at the start of the invocation, overlaid with
 * the invocation's changes so far and the shared `temp:` keys. Writes are collected as a state delta
 * (`temp:` writes go to the invocation's temp map instead); a deleted key is written as `null`.
 */
export class InvocationState implements SessionState {
  /** Keys written through this view (the node's contribution to the state delta). */
  readonly writes: Record<string, unknown> = {};

  constructor(
    private readonly base: Readonly<Record<string, unknown>>,
    private readonly delta: Readonly<Record<string, unknown>>,
    private readonly temp: Map<string, unknown>,
  ) {}

  get(key: string): unknown {
    if (key.startsWith(TEMP_PREFIX)) return this.temp.get(key);
    if (key in this.writes) return this.writes[key] ?? undefined;
    if (key in this.delta) return this.delta[key] ?? undefined;
    return this.base[key];
  }

  set(key: string, value: unknown): void {
    if (key.startsWith(TEMP_PREFIX)) this.temp.set(key, value);
    else this.writes[key] = value;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  delete(key: string): void {
    if (key.startsWith(TEMP_PREFIX)) this.temp.delete(key);
    else this.writes[key] = null;
  }

  /** Everything visible, as a plain object (for instruction templates). */
  snapshot(): Record<string, unknown> {
    const merged: Record<string, unknown> = {
      ...this.base,
      ...this.delta,
      ...this.writes,
      ...Object.fromEntries(this.temp),
    };
    for (const [key, value] of Object.entries(merged)) if (value === null) delete merged[key];
    return merged;
  }
}
