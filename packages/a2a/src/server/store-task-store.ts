import { type ListTasksRequest, type ListTasksResponse, Task, TaskState } from '@a2a-js/sdk';
import { RequestMalformedError } from '@a2a-js/sdk/errors';
import type { ServerCallContext, TaskStore } from '@a2a-js/sdk/server';
import type { JsonValue, Store, StoreFilter, StoreValue } from '@weft/compose';
import { label, scopeOf, type TaskScope } from './task-scope.js';

/** A task as the store keeps it, with the fields searches filter on. */
interface TaskRecord {
  readonly task: JsonValue;
  readonly contextId: string;
  readonly state: number;
  /** The status time in milliseconds (0 without one). */
  readonly statusAt: number;
  readonly tenant: string;
  readonly owner: string;
}

/** A stored task and whose it is (what {@link StoreTaskStore.unfinished} lists). */
export interface ScopedTask {
  readonly task: Task;
  readonly scope: TaskScope;
}

const DEFAULT_PAGE_SIZE = 50;
const SCAN = 500;

/**
 * The SDK's `TaskStore` on a Weft {@link Store} (memory, SQLite or PostgreSQL): each task is a document
 * under `['a2a', <server>, <tenant>, <owner>]`, so a task lives as long as the store's file or database,
 * and a caller sees only its own tasks (the SDK's scoping: tenant, then the authenticated user).
 *
 * @example
 * ```ts
 * import { MemoryStore } from '@weft/compose';
 * const tasks = new StoreTaskStore(new MemoryStore(), 'assistant');
 * ```
 */
export class StoreTaskStore implements TaskStore {
  constructor(
    private readonly store: Store,
    /** Separates the tasks of several servers sharing one store. */
    private readonly server: string,
  ) {}

  #namespace(scope: TaskScope): string[] {
    return ['a2a', label(this.server), label(scope.tenant), label(scope.owner)];
  }

  /** Creates or replaces a task in the caller's scope. */
  async save(task: Task, context: ServerCallContext): Promise<void> {
    const scope = scopeOf(context);
    const timestamp = task.status?.timestamp;
    const record: TaskRecord = {
      task: Task.toJSON(task) as JsonValue,
      contextId: task.contextId,
      state: task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED,
      statusAt: timestamp ? Date.parse(timestamp) || 0 : 0,
      tenant: scope.tenant,
      owner: scope.owner,
    };
    await this.store.put(this.#namespace(scope), task.id, record as unknown as StoreValue, { index: false });
  }

  /** The caller's task, or `undefined` (another caller's task is not found either). */
  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    const item = await this.store.get(this.#namespace(scopeOf(context)), taskId);
    return item ? Task.fromJSON((item.value as unknown as TaskRecord).task) : undefined;
  }

  /**
   * The caller's tasks, most recent status first, filtered by context, state and status time, a page at
   * a time (the page token is the offset of the next page).
   *
   * @throws RequestMalformedError for a page token this store did not hand out.
   */
  async list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    const pageSize = params.pageSize ?? DEFAULT_PAGE_SIZE;
    const offset = offsetOf(params.pageToken);
    const filter: Record<string, JsonValue> = {};
    if (params.contextId) filter.contextId = params.contextId;
    if (params.status !== undefined && params.status !== TaskState.TASK_STATE_UNSPECIFIED)
      filter.state = params.status;
    if (params.statusTimestampAfter) filter.statusAt = { $gt: Date.parse(params.statusTimestampAfter) };
    const matching = await this.#all(this.#namespace(scopeOf(context)), filter);
    const page = matching.slice(offset, offset + pageSize).map((record) => {
      const task = Task.fromJSON(record.task);
      return params.includeArtifacts ? task : { ...task, artifacts: [] };
    });
    const next = offset + page.length;
    return {
      tasks: page,
      nextPageToken: next < matching.length ? Buffer.from(String(next)).toString('base64') : '',
      pageSize,
      totalSize: matching.length,
    };
  }

  /** The caller's task in `contextId` still running or waiting for input, if there is one. */
  async openIn(contextId: string, context: ServerCallContext): Promise<Task | undefined> {
    const open = [
      TaskState.TASK_STATE_SUBMITTED,
      TaskState.TASK_STATE_WORKING,
      TaskState.TASK_STATE_INPUT_REQUIRED,
    ];
    const [hit] = await this.store.search(this.#namespace(scopeOf(context)), {
      filter: { contextId, state: { $in: open } },
      limit: 1,
    });
    return hit ? Task.fromJSON((hit.value as unknown as TaskRecord).task) : undefined;
  }

  /**
   * Every task of this server still `submitted` or `working`, in any scope: what a server started again
   * over the same store continues (their runs stopped with the process that ran them).
   */
  async unfinished(): Promise<ScopedTask[]> {
    const filter = { state: { $in: [TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING] } };
    const records = await this.#all(['a2a', label(this.server)], filter);
    return records.map((record) => ({
      task: Task.fromJSON(record.task),
      scope: { tenant: record.tenant, owner: record.owner },
    }));
  }

  /** Every record under `namespace` passing `filter`, most recent status first (then by id). */
  async #all(namespace: readonly string[], filter: StoreFilter): Promise<TaskRecord[]> {
    const records: Array<TaskRecord & { id: string }> = [];
    for (let offset = 0; ; offset += SCAN) {
      const hits = await this.store.search(namespace, { filter, limit: SCAN, offset });
      for (const hit of hits) records.push({ ...(hit.value as unknown as TaskRecord), id: hit.key });
      if (hits.length < SCAN) break;
    }
    return records.sort((a, b) => b.statusAt - a.statusAt || (b.id < a.id ? -1 : b.id > a.id ? 1 : 0));
  }
}

function offsetOf(pageToken: string | undefined): number {
  if (!pageToken) return 0;
  const offset = Number(Buffer.from(pageToken, 'base64').toString('utf8'));
  if (!Number.isSafeInteger(offset) || offset < 0)
    throw new RequestMalformedError('pageToken is not one this server handed out');
  return offset;
}
