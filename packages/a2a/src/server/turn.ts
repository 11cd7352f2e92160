import type { Message, Part } from '@a2a-js/sdk';
import type { PendingInterrupt } from './task-publisher.js';
import type { TaskScope } from './task-scope.js';

/**
 * One run of a served agent or graph for a task: a `new` message, an `answer` to its pauses, or a
 * `recover`ed run a stopped server left unfinished.
 */
export type TurnCall = {
  readonly taskId: string;
  readonly contextId: string;
  readonly scope: TaskScope;
  readonly signal: AbortSignal;
} & (
  | { readonly kind: 'new'; readonly message: Message }
  | { readonly kind: 'answer'; readonly answer: unknown }
  | { readonly kind: 'recover' }
);

/** What a run reports while it goes (the task publisher behind it). */
export interface TurnSink {
  /** Reply text as it streams. */
  chunk(text: string): void;
  /** A finished step worth showing (a tool call, a tool result, another agent's reply). */
  progress(parts: Part[], metadata: Record<string, unknown>): void;
}

/** How a run ended. */
export type TurnOutcome =
  | { readonly status: 'done'; readonly reply: Part[]; readonly metadata: Record<string, unknown> }
  | { readonly status: 'interrupted'; readonly interrupts: readonly PendingInterrupt[] }
  | { readonly status: 'cancelled' };

/** Runs turns of one served target (an agent through a Runner, or a compiled graph). */
export interface TurnRunner {
  run(call: TurnCall, sink: TurnSink): Promise<TurnOutcome>;
  /** True when a new task in `contextId` must wait for the open one (agents: one session, one writer). */
  readonly oneTaskPerContext: boolean;
}
