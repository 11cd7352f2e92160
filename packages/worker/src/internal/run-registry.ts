import { deserialize, serialize } from '@weft/compose/store';
import type { ChainableCommander, Redis } from 'ioredis';
import type { RunInfo, RunKind, RunStatus, WorkerRunResult } from '../run-info.js';
import type { QueueKeys } from './keys.js';

/** How long a run record is kept after its last change (7 days). */
const RECORD_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** How many run ids the recent-runs index keeps. */
const MAX_LISTED = 10_000;

/** A settled run's outcome as stored (the result without the ids). */
export type StoredOutcome = Omit<WorkerRunResult, 'runId' | 'threadId'>;

/**
 * Run records in Redis: one hash per run plus a sorted set of recent run ids, for `listRuns()`,
 * `getRun()` and `result()` in any process. The hash also keeps the run's *baseline*: the thread's
 * latest checkpoint id when the run was first picked up, which tells a retried job whether its input
 * was already applied.
 */
export class RunRegistry {
  constructor(
    private readonly redis: Redis,
    private readonly keys: QueueKeys,
  ) {}

  /** Records a submitted run. */
  async create(run: {
    runId: string;
    threadId: string;
    graph: string;
    kind: RunKind;
    at: number;
  }): Promise<void> {
    const key = this.keys.run(run.runId);
    await this.redis
      .multi()
      .hset(key, {
        runId: run.runId,
        threadId: run.threadId,
        graph: run.graph,
        kind: run.kind,
        status: 'queued',
        createdAt: run.at,
        updatedAt: run.at,
        attempts: 0,
      })
      .pexpire(key, RECORD_TTL_MS)
      .zadd(this.keys.runs, run.at, run.runId)
      .zremrangebyrank(this.keys.runs, 0, -(MAX_LISTED + 1))
      .exec();
  }

  /**
   * Marks a run as picked up by `workerId` (attempt `attempts`). Given the thread's `latest` checkpoint
   * id, it also stores that as the run's baseline if none is stored yet and returns the baseline as
   * stored (the first attempt's `latest`): one transaction, one round trip.
   */
  async running(
    runId: string,
    picked: { readonly workerId: string; readonly attempts: number; readonly latest?: string | undefined },
  ): Promise<string | undefined> {
    const key = this.keys.run(runId);
    const { workerId, attempts, latest } = picked;
    const multi = this.redis
      .multi()
      .hset(key, { status: 'running', workerId, attempts, updatedAt: Date.now() })
      .pexpire(key, RECORD_TTL_MS);
    if (latest === undefined) {
      await multi.exec();
      return undefined;
    }
    const replies = await multi.hsetnx(key, 'baseline', latest).hget(key, 'baseline').exec();
    const stored = replies?.[3]?.[1];
    return typeof stored === 'string' ? stored : latest;
  }

  /** Marks a run as waiting for a job retry after `error`. */
  async retrying(runId: string, error: string): Promise<void> {
    await this.#update(runId, { status: 'retrying', error });
  }

  /**
   * Adds to `multi` what stores the outcome of a settled run and then tells waiting clients
   * (`settledChannel`), so it commits with the rest of the run's settling in one round trip.
   */
  settleInto(
    multi: ChainableCommander,
    runId: string,
    settled: { readonly status: RunStatus; readonly outcome: StoredOutcome | { readonly error: string } },
  ): void {
    const { status, outcome } = settled;
    const fields =
      'error' in outcome ? { status, error: outcome.error } : { status, result: serialize(outcome) };
    const key = this.keys.run(runId);
    multi
      .hset(key, { ...fields, updatedAt: Date.now() })
      .pexpire(key, RECORD_TTL_MS)
      .publish(this.keys.settledChannel, runId);
  }

  /** The run's record, or `undefined` when unknown or expired. */
  async get(runId: string): Promise<(RunInfo & { readonly outcome?: StoredOutcome }) | undefined> {
    return toInfo(await this.redis.hgetall(this.keys.run(runId)));
  }

  /** Recent runs, newest first. */
  async list(options: { readonly limit?: number; readonly offset?: number } = {}): Promise<RunInfo[]> {
    const offset = options.offset ?? 0;
    const ids = await this.redis.zrevrange(this.keys.runs, offset, offset + (options.limit ?? 50) - 1);
    const pipeline = this.redis.pipeline();
    for (const id of ids) pipeline.hgetall(this.keys.run(id));
    const replies = (await pipeline.exec()) ?? [];
    const runs: RunInfo[] = [];
    for (const [, hash] of replies) {
      const info = toInfo(hash as Record<string, string>);
      if (info) runs.push(withoutOutcome(info));
    }
    return runs;
  }

  async #update(runId: string, fields: Record<string, string | number>): Promise<void> {
    const key = this.keys.run(runId);
    await this.redis
      .multi()
      .hset(key, { ...fields, updatedAt: Date.now() })
      .pexpire(key, RECORD_TTL_MS)
      .exec();
  }
}

function toInfo(hash: Record<string, string>): (RunInfo & { outcome?: StoredOutcome }) | undefined {
  if (hash.runId === undefined) return undefined;
  const info: RunInfo = {
    runId: hash.runId,
    threadId: hash.threadId ?? '',
    graph: hash.graph ?? '',
    kind: (hash.kind ?? 'start') as RunKind,
    status: (hash.status ?? 'queued') as RunStatus,
    createdAt: Number(hash.createdAt ?? 0),
    updatedAt: Number(hash.updatedAt ?? 0),
    workerId: hash.workerId,
    attempts: Number(hash.attempts ?? 0),
    error: hash.error,
  };
  return hash.result === undefined ? info : { ...info, outcome: deserialize(hash.result) as StoredOutcome };
}

function withoutOutcome(info: RunInfo & { outcome?: StoredOutcome }): RunInfo {
  const { outcome: _outcome, ...rest } = info;
  return rest;
}
