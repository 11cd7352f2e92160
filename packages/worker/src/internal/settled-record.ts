import type { Redis } from 'ioredis';
import type { PostgresRunJournal } from '../postgres-run-journal.js';
import type { RunStatus } from '../run-info.js';
import type { JobCarrier } from '../run-propagation.js';
import type { RunEventSink } from './event-writer.js';
import type { RunRegistry, StoredOutcome } from './run-registry.js';

/** What recording a settled run needs of the worker. */
export interface SettleTarget {
  readonly redis: Redis;
  readonly registry: RunRegistry;
  readonly queueName: string;
  readonly journal: PostgresRunJournal | undefined;
}

/** A settled run's record. */
export interface SettledRun {
  readonly runId: string;
  readonly status: RunStatus;
  readonly outcome: StoredOutcome | { readonly error: string };
  /** What the run's subscribers asked to keep for the run that resumes it (paused runs). */
  readonly pauseCarrier?: JobCarrier | undefined;
}

/**
 * Records a settled run and closes its part of the thread's event stream. With a journal, the journal
 * is written first, once the run's events are appended: it is the truth, and what follows in Redis is
 * then best effort (a client that waits re-reads the journal). Redis gets one transaction, in this
 * order: the events still buffered, the outcome in the run record, the notification for waiting
 * clients, the settled marker and the stream's expiry — one round trip where there were four. The
 * appends already sent are awaited first: a `MULTI` is never auto-pipelined, so it could overtake
 * commands queued behind an auto-pipeline in flight, and the stream must stay in order.
 *
 * @throws the Redis error when there is no journal (the run's outcome is then not stored).
 */
export async function recordSettled(
  target: SettleTarget,
  sink: RunEventSink,
  settled: SettledRun,
): Promise<void> {
  const { runId, status } = settled;
  if (target.journal) await sink.flush().catch(() => undefined);
  const journaled = (await target.journal?.settle(target.queueName, runId, settled)) ?? false;
  await sink.idle();
  const multi = target.redis.multi();
  sink.bufferedInto(multi);
  target.registry.settleInto(multi, runId, settled);
  sink.settledInto(multi, { runId, status });
  const stored = multi.exec();
  await (journaled ? stored.catch(() => undefined) : stored);
}
