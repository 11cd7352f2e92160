/**
 * What an entrypoint returns to return one value and save another for the thread's next turn; made by
 * `entrypoint.final({ value, save })`.
 */
export class EntrypointFinal<TValue, TSave> {
  constructor(
    /** What this turn returns to its caller. */
    readonly value: TValue,
    /** What the next turn on the thread reads as `ctx.previous` (and `getPreviousState()`). */
    readonly save: TSave,
  ) {
    Object.freeze(this);
  }
}

/** What the caller gets from an entrypoint whose body returns `TReturn`. */
export type EntrypointValue<TReturn> =
  TReturn extends EntrypointFinal<infer TValue, unknown> ? TValue : TReturn;

/** What the next turn reads as `ctx.previous` when the body returns `TReturn`. */
export type EntrypointSave<TReturn> = TReturn extends EntrypointFinal<unknown, infer TSave> ? TSave : TReturn;
