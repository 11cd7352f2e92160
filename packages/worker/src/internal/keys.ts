/**
 * The Redis keys and channels of one queue. BullMQ keeps its own under `bull:<queue>:`; ours live under
 * `weft:<queue>:` so `cleanupQueue` (tests) and operators can find and delete them by prefix.
 */
export interface QueueKeys {
  /** Prefix of every key below. */
  readonly prefix: string;
  /** The lease of a thread: `SET NX PX` with the holder's token. */
  lease(threadId: string): string;
  /** The thread's event stream (Redis stream, capped). */
  events(threadId: string): string;
  /** The thread's cancel epoch (a counter, see `cancel-epoch.ts`). */
  cancelEpoch(threadId: string): string;
  /** Pub/sub channel carrying thread ids to cancel. */
  readonly cancelChannel: string;
  /** Pub/sub channel carrying ids of runs that just settled. */
  readonly settledChannel: string;
  /** One run's record (a hash). */
  run(runId: string): string;
  /** Sorted set of run ids by submit time. */
  readonly runs: string;
}

/** Builds the keys of `queueName`. */
export function queueKeys(queueName: string): QueueKeys {
  const prefix = `weft:${queueName}:`;
  return {
    prefix,
    lease: (threadId) => `${prefix}lease:${threadId}`,
    events: (threadId) => `${prefix}events:${threadId}`,
    cancelEpoch: (threadId) => `${prefix}cancel:${threadId}`,
    cancelChannel: `${prefix}cancel`,
    settledChannel: `${prefix}settled`,
    run: (runId) => `${prefix}run:${runId}`,
    runs: `${prefix}runs`,
  };
}

/** The queue name used when none is given. */
export const DEFAULT_QUEUE_NAME = 'weft-runs';
