import type { SafePoint } from '../agent/agent-context.js';
import { AdkError } from '../errors/adk-error.js';

/**
 * How a cancel stops a run: at once, at the next safe point of a kind, or — a list of safe points,
 * like Eino's `afterModel | afterTools` bitmask — at whichever of them the run reaches first.
 *
 * @example
 * ```ts
 * const mode: CancelMode = ['afterModel', 'afterTools'];
 * ```
 */
export type CancelMode = SafePoint | 'immediate' | readonly [SafePoint, ...SafePoint[]];

/** Options of `runner.cancel`. */
export interface CancelOptions {
  /** Where to stop (default `immediate`); a list stops at the first of its safe points reached. */
  readonly mode?: CancelMode;
  /** A safe-point cancel becomes immediate after this many ms (default 10 000). */
  readonly timeoutMs?: number;
}

/** The cancel requests of one running invocation. */
export class CancelState {
  #points: ReadonlySet<SafePoint> = new Set();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #cancelled = false;

  constructor(private readonly controller: AbortController) {}

  /** True once any cancel was requested. */
  get cancelled(): boolean {
    return this.#cancelled;
  }

  /** Records a request; immediate aborts now, a safe-point request escalates after its timeout. */
  request(options: CancelOptions): void {
    const points = safePointsOf(options.mode);
    this.#cancelled = true;
    if (points === 'immediate') {
      this.controller.abort(new Error('cancelled by runner.cancel'));
      return;
    }
    this.#points = points;
    clearTimeout(this.#timer);
    const named = [...points].join(' or ');
    this.#timer = setTimeout(
      () => this.controller.abort(new Error(`cancel at ${named} timed out; stopped immediately`)),
      options.timeoutMs ?? 10_000,
    );
    this.#timer.unref?.();
  }

  /** Whether the run should stop at this safe point. */
  requested(point: SafePoint): boolean {
    return this.#points.has(point);
  }

  /** Stops the escalation timer (the run ended). */
  dispose(): void {
    clearTimeout(this.#timer);
  }
}

const safePoints: ReadonlySet<string> = new Set<SafePoint>(['afterModel', 'afterTools']);

/**
 * The safe points a cancel mode stops at, or `immediate`.
 *
 * @throws AdkError `INVALID_ARGUMENT` naming `mode` when it is not a cancel mode or an empty list.
 * @example
 * ```ts
 * safePointsOf(['afterModel', 'afterTools']); // Set { 'afterModel', 'afterTools' }
 * ```
 */
export function safePointsOf(mode: CancelMode | undefined): ReadonlySet<SafePoint> | 'immediate' {
  if (mode === undefined || mode === 'immediate') return 'immediate';
  const list: readonly unknown[] = typeof mode === 'string' ? [mode] : Array.isArray(mode) ? mode : [mode];
  const bad = list.find((point) => typeof point !== 'string' || !safePoints.has(point));
  if (list.length === 0 || bad !== undefined) {
    throw new AdkError(
      'INVALID_ARGUMENT',
      `cancel option "mode" must be 'immediate', 'afterModel', 'afterTools' or a non-empty list of the last two; got ${JSON.stringify(list.length === 0 ? mode : bad)}`,
    );
  }
  return new Set(list as SafePoint[]);
}
