import type { SafePoint } from '../agent/agent-context.js';

/** How a cancel stops a run: at the next safe point of a kind, or at once. */
export type CancelMode = SafePoint | 'immediate';

/** Options of `runner.cancel`. */
export interface CancelOptions {
  /** Where to stop (default `immediate`). */
  readonly mode?: CancelMode;
  /** A safe-point cancel becomes immediate after this many ms (default 10 000). */
  readonly timeoutMs?: number;
}

/** The cancel requests of one running invocation. */
export class CancelState {
  #point: SafePoint | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #cancelled = false;

  constructor(private readonly controller: AbortController) {}

  /** True once any cancel was requested. */
  get cancelled(): boolean {
    return this.#cancelled;
  }

  /** Records a request; immediate aborts now, a safe-point request escalates after its timeout. */
  request(options: CancelOptions): void {
    this.#cancelled = true;
    const mode = options.mode ?? 'immediate';
    if (mode === 'immediate') {
      this.controller.abort(new Error('cancelled by runner.cancel'));
      return;
    }
    this.#point = mode;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(
      () => this.controller.abort(new Error(`cancel at ${mode} timed out; stopped immediately`)),
      options.timeoutMs ?? 10_000,
    );
    this.#timer.unref?.();
  }

  /** Whether the run should stop at this safe point. */
  requested(point: SafePoint): boolean {
    return this.#point === point;
  }

  /** Stops the escalation timer (the run ended). */
  dispose(): void {
    clearTimeout(this.#timer);
  }
}
