// The server's records (assistants and their versions, threads, runs) as documents of one Weft Store,
// under the reserved first label `weft-server` (which the Store API refuses to its callers).
import type { Store, StoreValue } from '@weft/compose';
import type { AssistantRecord, CronRecord, RunRecord, ThreadRecord } from './record-types.js';

/** The first namespace label of every record; no API caller may read or write under it. */
export const RESERVED_LABEL = 'weft-server';

const assistantsNs = [RESERVED_LABEL, 'assistants'];
const threadsNs = [RESERVED_LABEL, 'threads'];
const runsNs = [RESERVED_LABEL, 'runs'];
/** A namespace label for any string (labels may not contain `.` or be empty). */
const label = (text: string) => `x${Buffer.from(text).toString('base64url')}`;
/** A thread's runs, by run id (an index: the runs themselves are in `runsNs`). */
const threadRunsNs = (threadId: string) => [RESERVED_LABEL, 'thread-runs', label(threadId)];
/** A user's pending and running runs, by run id (the per-user limit counts them). */
const inflightNs = (owner: string | null) => [
  RESERVED_LABEL,
  'inflight-runs',
  owner === null ? 'anonymous' : label(owner),
];
const isInflight = (run: RunRecord) => run.status === 'pending' || run.status === 'running';
const cronsNs = [RESERVED_LABEL, 'crons'];
const versionsNs = (assistantId: string) => [RESERVED_LABEL, 'assistant-versions', assistantId];

/** Numbers as keys that sort as text: `000000000042`. */
export function sortableKey(value: number): string {
  return String(value).padStart(12, '0');
}

const asValue = (record: object) => record as unknown as StoreValue;
/** Records come back as they were put (the Store checks JSON on the way in). */
const asRecord = <T>(value: StoreValue) => value as unknown as T;

/** Reads and writes the server's records in a Store. */
export class Records {
  readonly #store: Store;

  constructor(store: Store) {
    this.#store = store;
  }

  async assistant(id: string): Promise<AssistantRecord | undefined> {
    const item = await this.#store.get(assistantsNs, id);
    return item && asRecord<AssistantRecord>(item.value);
  }

  /** Stores an assistant's current version (and the version itself in its history). */
  async putAssistant(record: AssistantRecord, options: { readonly ifAbsent?: boolean } = {}): Promise<void> {
    await this.#store.put(versionsNs(record.assistant_id), sortableKey(record.version), asValue(record), {
      index: false,
    });
    await this.#store.put(assistantsNs, record.assistant_id, asValue(record), { index: false, ...options });
  }

  /** Makes an earlier version the current one. */
  async setAssistantCurrent(record: AssistantRecord): Promise<void> {
    await this.#store.put(assistantsNs, record.assistant_id, asValue(record), { index: false });
  }

  async assistantVersions(id: string): Promise<AssistantRecord[]> {
    const items = await this.#store.search(versionsNs(id), { limit: 100_000 });
    return items.map((item) => asRecord<AssistantRecord>(item.value)).sort((a, b) => b.version - a.version);
  }

  async assistants(): Promise<AssistantRecord[]> {
    const items = await this.#store.search(assistantsNs, { limit: 100_000 });
    return items.map((item) => asRecord<AssistantRecord>(item.value));
  }

  async deleteAssistant(id: string): Promise<void> {
    for (const version of await this.assistantVersions(id))
      await this.#store.delete(versionsNs(id), sortableKey(version.version));
    await this.#store.delete(assistantsNs, id);
  }

  async thread(id: string): Promise<ThreadRecord | undefined> {
    const item = await this.#store.get(threadsNs, id);
    return item && asRecord<ThreadRecord>(item.value);
  }

  async putThread(record: ThreadRecord, options: { readonly ifAbsent?: boolean } = {}): Promise<void> {
    await this.#store.put(threadsNs, record.thread_id, asValue(record), { index: false, ...options });
  }

  async threads(): Promise<ThreadRecord[]> {
    const items = await this.#store.search(threadsNs, { limit: 1_000_000 });
    return items.map((item) => asRecord<ThreadRecord>(item.value));
  }

  async deleteThread(id: string): Promise<void> {
    await this.#store.delete(threadsNs, id);
  }

  async run(id: string): Promise<RunRecord | undefined> {
    const item = await this.#store.get(runsNs, id);
    return item && asRecord<RunRecord>(item.value);
  }

  /** Stores a run, and keeps the indexes of its thread's runs and its owner's runs in flight. */
  async putRun(record: RunRecord): Promise<void> {
    await this.#store.put(runsNs, record.run_id, asValue(record), { index: false });
    await this.#store.put(
      threadRunsNs(record.thread_id),
      record.run_id,
      { run_id: record.run_id },
      { index: false },
    );
    if (isInflight(record))
      await this.#store.put(
        inflightNs(record.owner),
        record.run_id,
        { thread_id: record.thread_id },
        { index: false },
      );
    else await this.#store.delete(inflightNs(record.owner), record.run_id);
  }

  /** Runs of a thread (or, without one, every run), oldest first. */
  async runs(threadId?: string): Promise<RunRecord[]> {
    const records =
      threadId === undefined
        ? (await this.#store.search(runsNs, { limit: 1_000_000 })).map((item) =>
            asRecord<RunRecord>(item.value),
          )
        : await this.#runsById(await this.#store.search(threadRunsNs(threadId), { limit: 1_000_000 }));
    return records.sort(
      (a, b) => a.created_at.localeCompare(b.created_at) || a.run_id.localeCompare(b.run_id),
    );
  }

  /** A user's pending and running runs. */
  async inflightRuns(owner: string | null): Promise<RunRecord[]> {
    return (await this.#runsById(await this.#store.search(inflightNs(owner), { limit: 1_000_000 }))).filter(
      isInflight,
    );
  }

  async #runsById(items: readonly { readonly key: string }[]): Promise<RunRecord[]> {
    const runs = await Promise.all(items.map((item) => this.run(item.key)));
    return runs.filter((run): run is RunRecord => run !== undefined);
  }

  async deleteRun(id: string): Promise<void> {
    const record = await this.run(id);
    await this.#store.delete(runsNs, id);
    if (!record) return;
    await this.#store.delete(threadRunsNs(record.thread_id), id);
    await this.#store.delete(inflightNs(record.owner), id);
  }

  async cron(id: string): Promise<CronRecord | undefined> {
    const item = await this.#store.get(cronsNs, id);
    return item && asRecord<CronRecord>(item.value);
  }

  async putCron(record: CronRecord): Promise<void> {
    await this.#store.put(cronsNs, record.cron_id, asValue(record), { index: false });
  }

  async crons(): Promise<CronRecord[]> {
    const items = await this.#store.search(cronsNs, { limit: 1_000_000 });
    return items.map((item) => asRecord<CronRecord>(item.value));
  }

  async deleteCron(id: string): Promise<void> {
    await this.#store.delete(cronsNs, id);
  }

  /**
   * Claims one firing of a cron (its id and due time): exactly one caller wins, across processes over
   * the same store; `false` for the others.
   */
  async claimCronFiring(id: string, due: string): Promise<boolean> {
    try {
      await this.#store.put(
        [RESERVED_LABEL, 'cron-firings', id],
        due.replace(/[.:]/g, '-'),
        { due },
        { index: false, ifAbsent: true, ttlMs: 7 * 24 * 3_600_000 },
      );
      return true;
    } catch (error) {
      if ((error as { code?: string }).code === 'STORE_CONFLICT') return false;
      throw error;
    }
  }

  /** Claims the execution of a run: exactly one process wins (an atomic insert-if-absent). */
  async claimRun(id: string): Promise<boolean> {
    try {
      await this.#store.put(
        [RESERVED_LABEL, 'run-claims'],
        id,
        { claimed: true },
        { index: false, ifAbsent: true },
      );
      return true;
    } catch (error) {
      if ((error as { code?: string }).code === 'STORE_CONFLICT') return false;
      throw error;
    }
  }

  /** Releases a run's execution claim (it ended, or was handed back). */
  async releaseRun(id: string): Promise<void> {
    await this.#store.delete([RESERVED_LABEL, 'run-claims'], id);
  }
}
