/**
 * Read and write access to the session state a tool runs in (for example a user's preferences or a
 * shopping cart). The Runner will back it by its session service; outside a Runner the default is a
 * {@link MemorySessionState}. Values should be plain JSON so they can be stored.
 *
 * @example
 * ```ts
 * const visit = tool({
 *   name: 'visit',
 *   description: 'Counts the visits of this session',
 *   parameters: z.object({}),
 *   execute: (_args, context) => {
 *     const count = Number(context.state.get('visits') ?? 0);
 *     context.state.set('visits', count + 1);
 *     return count + 1;
 *   },
 * });
 * ```
 */
export interface SessionState {
  /** The value stored under `key`, or `undefined`. */
  get(key: string): unknown;
  /** Stores `value` under `key`. */
  set(key: string, value: unknown): void;
  /** True when a value is stored under `key`. */
  has(key: string): boolean;
  /** Removes `key`. */
  delete(key: string): void;
}

/**
 * A {@link SessionState} kept in a `Map`, optionally seeded from an object.
 *
 * @example
 * ```ts
 * const state = new MemorySessionState({ 'user:name': 'Ada' });
 * const addToCart = tool({
 *   name: 'add_to_cart',
 *   description: 'Adds an item to the cart',
 *   parameters: z.object({ item: z.string() }),
 *   execute: ({ item }, context) => context.state.set('cart', [item]),
 * });
 * const calls = [{ id: 'call_1', name: 'add_to_cart', arguments: '{"item":"tea"}' }];
 * await executeToolCalls(calls, [addToCart], { state });
 * state.get('cart'); // ['tea']
 * ```
 */
export class MemorySessionState implements SessionState {
  readonly #values: Map<string, unknown>;

  constructor(initial: Readonly<Record<string, unknown>> = {}) {
    this.#values = new Map(Object.entries(initial));
  }

  get(key: string): unknown {
    return this.#values.get(key);
  }

  set(key: string, value: unknown): void {
    this.#values.set(key, value);
  }

  has(key: string): boolean {
    return this.#values.has(key);
  }

  delete(key: string): void {
    this.#values.delete(key);
  }

  /** A plain-object copy of every entry. */
  toJSON(): Record<string, unknown> {
    return Object.fromEntries(this.#values);
  }
}
