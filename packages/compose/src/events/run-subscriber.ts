import type { RunEvent } from './run-event.js';

/**
 * A subscriber the run waits for (`RunOptions.observe`): it sees every event, in order, and may return a
 * promise. A node that reports an event (`ctx.report`, `ctx.chunk`) goes on once the subscriber settled
 * that event and every one before it; each step waits for it too, and the run ends after it. A rejection
 * (or a throw) fails the reporting node — or, for an engine event, the step that follows — so the
 * subscriber can be the one that commits what the node reported (the agent Runner commits agent events
 * to its session this way). Unlike `callbacks`, which never fail a run.
 *
 * @example
 * ```ts
 * const graph = new StateGraph(z.object({ text: z.string() }))
 *   .addNode('upper', (s) => ({ text: s.text.toUpperCase() }))
 *   .addEdge(START, 'upper')
 *   .addEdge('upper', END)
 *   .compile();
 * const seen: string[] = [];
 * const observe: RunSubscriber = async (event) => {
 *   seen.push(event.type); // awaited: the run waits for a slow subscriber
 * };
 * await graph.invoke({ text: 'hi' }, { observe });
 * seen; // ['run-start', …, 'node-end', …, 'run-end']
 * ```
 */
export type RunSubscriber = (event: RunEvent) => Promise<void> | undefined | void;

/**
 * Delivers events to a {@link RunSubscriber} one at a time: while a promise it returned is pending, later
 * events wait for it. `pending()` is the promise of the last event handed over (undefined when all have
 * settled); once one rejects, later events are no longer delivered and `pending()` keeps rejecting.
 */
export class SerialSubscriber {
  #tail: Promise<void> | undefined;

  constructor(private readonly subscriber: RunSubscriber) {}

  /** Hands an event over (at once when nothing is pending). */
  readonly deliver = (event: RunEvent): void => {
    if (this.#tail) {
      this.#track(this.#tail.then(() => this.subscriber(event)));
      return;
    }
    let result: Promise<void> | undefined | void;
    try {
      result = this.subscriber(event);
    } catch (error) {
      result = Promise.reject(error);
    }
    if (result) this.#track(result);
  };

  /** The promise of the events handed over so far, or undefined when they all settled. */
  readonly pending = (): Promise<void> | undefined => this.#tail;

  #track(result: Promise<void> | undefined | void): void {
    const tail: Promise<void> = Promise.resolve(result).then(() => {
      if (this.#tail === tail) this.#tail = undefined;
    });
    // Marked handled here; whoever awaits `pending()` still sees the rejection.
    tail.catch(() => undefined);
    this.#tail = tail;
  }
}
