// The records the server keeps (as documents of a Weft Store), in the LangGraph API's own field names so
// a record is answered as it is stored, minus the `owner` field (see `publicView`).
import type { JsonValue } from '@weft/compose';

/** JSON object, as records hold them. */
export type JsonObject = { readonly [key: string]: JsonValue };

/** A run's status, as the LangGraph API names them. */
export type RunStatus = 'pending' | 'running' | 'error' | 'success' | 'timeout' | 'interrupted';
/** A thread's status. */
export type ThreadStatus = 'idle' | 'busy' | 'interrupted' | 'error';
/** What a new run on a busy thread does (double texting). */
export type MultitaskStrategy = 'reject' | 'interrupt' | 'rollback' | 'enqueue';

/** A run's configuration: `configurable` values, tags, the step limit. */
export interface RunConfig {
  readonly tags?: readonly string[];
  readonly recursion_limit?: number;
  readonly configurable?: JsonObject;
}

/** One version of an assistant: a graph with its configuration. */
export interface AssistantRecord {
  readonly assistant_id: string;
  readonly graph_id: string;
  readonly config: RunConfig;
  readonly context: JsonObject;
  readonly metadata: JsonObject;
  readonly name: string;
  readonly description: string | null;
  readonly version: number;
  readonly created_at: string;
  readonly updated_at: string;
  /** Who created it; `null` for the assistants the server makes for its graphs (everyone may use them). */
  readonly owner: string | null;
}

/** A thread: the conversation a graph's checkpoints belong to. */
export interface ThreadRecord {
  readonly thread_id: string;
  readonly created_at: string;
  readonly updated_at: string;
  readonly state_updated_at: string;
  readonly metadata: JsonObject;
  readonly status: ThreadStatus;
  readonly config: RunConfig;
  /** The graph whose checkpoints the thread holds (set by its first run or state update). */
  readonly graph_id: string | null;
  readonly owner: string | null;
  readonly error: string | null;
  /**
   * After a rollback: the checkpoint the thread is back at (its state is read there and its next run
   * starts there); `undefined` when the head is the latest checkpoint.
   */
  readonly rollback_to?: string;
}

/** What a run was asked to do. */
export interface RunKwargs {
  readonly input: JsonValue;
  readonly command: JsonObject | null;
  readonly config: RunConfig;
  readonly context: JsonObject;
  readonly stream_mode: readonly string[];
  readonly stream_subgraphs: boolean;
  readonly interrupt_before: readonly string[] | '*' | null;
  readonly interrupt_after: readonly string[] | '*' | null;
  readonly checkpoint_id: string | null;
  readonly webhook: string | null;
  /** Stateless runs: whether their thread is deleted when they end. */
  readonly on_completion: 'delete' | 'keep';
}

/** A run of an assistant on a thread. */
export interface RunRecord {
  readonly run_id: string;
  readonly thread_id: string;
  readonly assistant_id: string;
  readonly created_at: string;
  readonly updated_at: string;
  readonly status: RunStatus;
  readonly metadata: JsonObject;
  readonly multitask_strategy: MultitaskStrategy;
  readonly kwargs: RunKwargs;
  readonly owner: string | null;
  /** Not before this time (ISO), for `after_seconds`. */
  readonly start_after: string;
  /** A cancel asked of a run executing in another process; that process stops it within `pollMs`. */
  readonly cancel?: 'interrupt' | 'rollback';
  /** Set on a run handed back or recovered: it continues from its thread's last checkpoint. */
  readonly resume?: boolean;
}

/** A schedule that runs an assistant: on one thread, or each time on a new one. */
export interface CronRecord {
  readonly cron_id: string;
  readonly assistant_id: string;
  /** The thread each run goes to; `null`: a new thread per run. */
  readonly thread_id: string | null;
  readonly schedule: string;
  /** What each run is given: input, config, context, metadata, breakpoints, webhook, multitask strategy. */
  readonly payload: JsonObject;
  /** Threads of a stateless cron's runs: deleted when the run ends (default) or kept. */
  readonly on_run_completed: 'delete' | 'keep';
  readonly end_time: string | null;
  readonly enabled: boolean;
  readonly next_run_date: string;
  readonly metadata: JsonObject;
  readonly created_at: string;
  readonly updated_at: string;
  readonly user_id: string | null;
  readonly owner: string | null;
}

/** A record as answered over HTTP: without its owner. */
export function publicView<T extends { readonly owner: string | null }>(record: T): Omit<T, 'owner'> {
  const { owner: _owner, ...rest } = record;
  return rest;
}
