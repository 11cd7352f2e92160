/**
 * What an effect's function receives: the key to hand to the outside world, so a call repeated in the
 * window between "the external call succeeded" and "its result was recorded" is recognised there.
 *
 * @example
 * ```ts
 * async function charge(effect: EffectInfo, amount: number) {
 *   const response = await fetch('https://api.example.com/charges', {
 *     method: 'POST',
 *     headers: { 'Idempotency-Key': effect.idempotencyKey, 'Content-Type': 'application/json' },
 *     body: JSON.stringify({ amount }),
 *     signal: effect.signal,
 *   });
 *   return (await response.json()) as { id: string };
 * }
 * ```
 */
export interface EffectInfo {
  /** The effect's name as given to `ctx.effect`. */
  readonly name: string;
  /**
   * `weft-` and 40 hex digits, the same on every re-run of this effect (after a crash, a retry, a lost
   * lease, a resume) and different for every other effect: pass it to APIs that take one (Stripe's
   * `Idempotency-Key`, an email provider's message id, a ticket's external id).
   */
  readonly idempotencyKey: string;
  /** The task attempt running it (from 1). */
  readonly attempt: number;
  /** Fires when the run is cancelled or its task times out. */
  readonly signal: AbortSignal;
}

/**
 * Options of `ctx.effect`.
 *
 * @example
 * ```ts
 * const options: EffectOptions = { key: 'call_7f3a' }; // e.g. a model's tool-call id
 * ```
 */
export interface EffectOptions {
  /**
   * A stable key of your own for this effect within the task (a tool call's id, an order line's id);
   * default: the effect's position among the task's effects of the same name (the first is `0`), so a
   * task must then make them in the same order on every run.
   */
  readonly key?: string;
}
