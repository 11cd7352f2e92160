import type { SafePoint } from '../agent/agent-context.js';
import type { AgentEvent } from '../event/agent-event.js';
import { eventId } from '../internal/event-id.js';
import type { Message } from '../message/message.js';
import type { Runner } from './runner.js';
import { type RunningTurn, type TurnItem, type TurnLoopState, TurnQueueStore } from './turn-queue.js';

/**
 * Options of a {@link TurnLoop}.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const agent = new ChatModelAgent({ name: 'desk', model: new ScriptedChatModel(['Hello!']) });
 * const sessionService = new MemorySessionService();
 * const runner = new Runner({ agent, sessionService });
 * const options: TurnLoopOptions = { runner, userId: 'u1', sessionId: 's1', preempt: { at: 'afterTools', timeoutMs: 5_000 } };
 * ```
 */
export interface TurnLoopOptions {
  readonly runner: Runner;
  readonly userId: string;
  readonly sessionId: string;
  /** How an urgent item stops the running turn: at this safe point (default `afterModel`), then at once after `timeoutMs` (default 10 000). */
  readonly preempt?: { readonly at?: SafePoint; readonly timeoutMs?: number };
  /** Receives every event of every turn, in order. */
  readonly onEvent?: (event: AgentEvent) => void | Promise<void>;
}

/**
 * A long-lived loop around an agent: items pushed to it (user messages, external events) are handled
 * one turn at a time through the Runner. An urgent item preempts the running turn at a safe point
 * (escalating to an immediate stop after a timeout) and goes first. The loop stops gracefully (after the
 * running turn) or immediately. Its queue and the running turn are kept in the session state (key
 * `__turn_loop__`), next to the Runner's checkpoints: a loop started over the same stores after a restart
 * resumes the unfinished turn, then handles the items left. A turn that pauses for a human waits for
 * {@link TurnLoop.resume}; items pushed meanwhile wait too.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const agent = new ChatModelAgent({ name: 'desk', model: new ScriptedChatModel(['Done.', 'On it.']) });
 * const runner = new Runner({ agent, sessionService: new MemorySessionService() });
 * const loop = new TurnLoop({ runner, userId: 'u1', sessionId: 's1', onEvent: (e) => console.log(e.author) });
 * await loop.start();
 * await loop.push('Summarize my inbox');
 * await loop.push({ role: 'user', content: 'The server is down!' }, { urgent: true });
 * await loop.idle();
 * await loop.stop();
 * ```
 */
export class TurnLoop {
  readonly #options: TurnLoopOptions;
  readonly #store: TurnQueueStore;
  #state: TurnLoopState = { queue: [] };
  #running = false;
  #stopping = false;
  #wake: (() => void) | undefined;
  #idle: Array<() => void> = [];
  #done: Promise<void> = Promise.resolve();

  constructor(options: TurnLoopOptions) {
    this.#options = options;
    const { runner, userId, sessionId } = options;
    this.#store = new TurnQueueStore(runner.sessionService, { appName: runner.appName, userId, sessionId });
  }

  /** Items waiting for a turn, in the order they will run. */
  get pending(): readonly TurnItem[] {
    return this.#state.queue;
  }

  /** Loads the saved queue, resumes a turn a previous loop left unfinished, and starts handling items. */
  async start(): Promise<void> {
    this.#state = await this.#store.load();
    this.#stopping = false;
    this.#done = this.#drive();
  }

  /** Queues a user message (an urgent one preempts the running turn); resolves once it is persisted. */
  push(message: Message | string, options: { readonly urgent?: boolean } = {}): Promise<TurnItem> {
    return this.#enqueue({ id: eventId('item'), message, urgent: options.urgent ?? false, source: 'user' });
  }

  /** Queues an external event as a message the agent reads (`[event name] data`). */
  pushEvent(name: string, data: unknown, options: { readonly urgent?: boolean } = {}): Promise<TurnItem> {
    const text = `[event ${name}] ${typeof data === 'string' ? data : JSON.stringify(data)}`;
    return this.#enqueue({
      id: eventId('item'),
      message: text,
      urgent: options.urgent ?? false,
      source: 'event',
    });
  }

  /** Answers the pause of a turn waiting for a human (see `runner.resume`), then goes on. */
  async resume(decisions?: unknown): Promise<void> {
    const running = this.#state.running;
    if (!running?.waiting) return;
    await this.#save({ ...this.#state, running: { ...running, waiting: false, resume: decisions } });
    this.#wake?.();
  }

  /** Resolves when no item is waiting and no turn runs (or one waits for a human). */
  idle(): Promise<void> {
    if (this.#isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /**
   * Stops the loop: `graceful` (default) lets the running turn finish, `immediate` cancels it (it is
   * resumed by the next loop over the same stores). Waiting items stay persisted.
   */
  async stop(options: { readonly mode?: 'graceful' | 'immediate' } = {}): Promise<void> {
    this.#stopping = true;
    if (options.mode === 'immediate' && this.#running) this.#options.runner.cancel(this.#options);
    this.#wake?.();
    await this.#done;
  }

  async #enqueue(item: TurnItem): Promise<TurnItem> {
    const { queue } = this.#state;
    const at = item.urgent ? queue.findIndex((i) => !i.urgent) : -1;
    const next = at < 0 ? [...queue, item] : [...queue.slice(0, at), item, ...queue.slice(at)];
    await this.#save({ ...this.#state, queue: next });
    if (item.urgent && this.#running) {
      const { at: point = 'afterModel', timeoutMs } = this.#options.preempt ?? {};
      this.#options.runner.cancel(this.#options, {
        mode: point,
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
      });
    }
    this.#wake?.();
    return item;
  }

  async #drive(): Promise<void> {
    while (!this.#stopping) {
      const running = this.#state.running;
      if (running && !running.waiting) {
        await this.#turn(running, true);
        continue;
      }
      const [item, ...rest] = this.#state.queue;
      if (running?.waiting || !item) {
        this.#settleIdle();
        await new Promise<void>((resolve) => (this.#wake = resolve));
        continue;
      }
      await this.#save({ queue: rest, running: item });
      await this.#turn(item, false);
    }
    for (const resolve of this.#idle.splice(0)) resolve();
  }

  async #turn(item: RunningTurn, resuming: boolean): Promise<void> {
    const { runner, userId, sessionId } = this.#options;
    const ref = { userId, sessionId };
    this.#running = true;
    let last: AgentEvent | undefined;
    try {
      const events = resuming
        ? runner.resume({ ...ref, ...(item.resume === undefined ? {} : { decisions: item.resume }) })
        : runner.run({ ...ref, message: item.message });
      for await (const event of events) {
        last = event;
        await this.#options.onEvent?.(event);
      }
    } catch {
      // The turn failed; its error event was committed and delivered. The loop goes on.
    } finally {
      this.#running = false;
    }
    const stoppedNow = this.#stopping && last?.error?.code === 'CANCELLED';
    if (stoppedNow) return; // keep `running`: the next loop resumes it
    const { resume: _, ...plain } = item;
    const waiting = (last?.interrupts ?? []).some((i) => !isCancelPause(i.value));
    await this.#save({ queue: this.#state.queue, ...(waiting ? { running: { ...plain, waiting } } : {}) });
  }

  #save(state: TurnLoopState): Promise<void> {
    this.#state = state;
    return this.#store.save(state);
  }

  #isIdle(): boolean {
    const { queue, running } = this.#state;
    if (running) return running.waiting === true && !this.#running;
    return !this.#running && queue.length === 0;
  }

  #settleIdle(): void {
    if (!this.#isIdle()) return;
    for (const resolve of this.#idle.splice(0)) resolve();
  }
}

function isCancelPause(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'cancelled';
}
