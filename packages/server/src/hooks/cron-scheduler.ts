// Fires due crons: each tick, every enabled cron whose next run is due is claimed (one firing per due
// time, across every server over the same store), given its next due time, and run — on its thread, or
// on a new thread deleted after the run unless `on_run_completed: keep`.
import type { Api } from '../http/api-context.js';
import { buildRunRequest } from '../http/run-routes.js';
import type { CronRecord } from '../records/record-types.js';
import { nextRun, parseCron } from './cron-schedule.js';

/** How the scheduler keeps time. */
export interface CronClock {
  /** Milliseconds between checks for due crons (default 10,000). */
  readonly tickMs?: number;
  /** The current time (default `new Date()`); tests move it. */
  readonly now?: () => Date;
}

/** Checks for due crons on a timer until stopped. */
export class CronScheduler {
  readonly #api: Api;
  readonly #now: () => Date;
  readonly #timer: NodeJS.Timeout;
  #ticking: Promise<void> = Promise.resolve();

  constructor(api: Api, clock: CronClock = {}) {
    this.#api = api;
    this.#now = clock.now ?? (() => new Date());
    this.#timer = setInterval(() => {
      this.#ticking = this.#ticking.then(() => this.tick());
    }, clock.tickMs ?? 10_000);
    this.#timer.unref();
  }

  /** The current time as the scheduler sees it. */
  now(): Date {
    return this.#now();
  }

  /** Fires every cron due now; resolves when their runs are created. */
  async tick(): Promise<void> {
    const now = this.#now();
    for (const cron of await this.#api.context.records.crons()) {
      if (!cron.enabled || Date.parse(cron.next_run_date) > now.getTime()) continue;
      if (cron.end_time !== null && Date.parse(cron.end_time) < now.getTime()) continue;
      if (!(await this.#api.context.records.claimCronFiring(cron.cron_id, cron.next_run_date))) continue;
      const next = nextRun(parseCron(cron.schedule), now).toISOString();
      await this.#api.context.records.putCron({
        ...cron,
        next_run_date: next,
        updated_at: now.toISOString(),
      });
      await this.#fire(cron).catch((error: unknown) =>
        this.#api.context.log('warn', 'cron run not started', {
          cron_id: cron.cron_id,
          error: String(error),
        }),
      );
    }
  }

  async #fire(cron: CronRecord): Promise<void> {
    const assistant = await this.#api.context.records.assistant(cron.assistant_id);
    if (!assistant) throw new Error(`assistant "${cron.assistant_id}" was deleted`);
    const request = buildRunRequest(
      this.#api,
      { assistant, owner: cron.owner, threadId: cron.thread_id },
      {
        multitask_strategy: 'enqueue',
        on_completion: cron.on_run_completed,
        ...cron.payload,
        metadata: { ...(cron.payload.metadata as object | undefined), cron_id: cron.cron_id },
      },
    );
    await this.#api.runs.create(request);
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#ticking;
  }
}
