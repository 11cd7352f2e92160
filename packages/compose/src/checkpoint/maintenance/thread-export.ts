import { WeftError } from '../../errors/weft-error.js';
import type { Checkpointer, CheckpointRecord, TaskWritesRecord } from '../checkpointer.js';
import { maintainable } from './prune-checkpoints.js';

/** A thread as JSON: every checkpoint of every namespace (oldest first) and the task writes saved against them. */
export interface ThreadExport {
  readonly format: 'weft-thread';
  readonly version: 1;
  readonly threadId: string;
  readonly checkpoints: readonly CheckpointRecord[];
  readonly writes: readonly TaskWritesRecord[];
}

/**
 * Exports one thread as plain JSON (payloads, checksums and metadata exactly as stored), for support, for
 * moving a thread between stores, and for tests.
 *
 * @throws {WeftError} code `NOT_FOUND` when the thread has no checkpoint; `INVALID_ARGUMENT` when the
 * store cannot be maintained.
 * @example
 * ```ts
 * const from = new MemoryCheckpointer();
 * const to = new MemoryCheckpointer();
 * const data = await exportThread(from, 'ticket-7'); // JSON.stringify(data) to save it
 * await importThread(to, data);
 * ```
 */
export async function exportThread(checkpointer: Checkpointer, threadId: string): Promise<ThreadExport> {
  const store = maintainable(checkpointer);
  const [thread] = await store.listThreads({ threadId });
  if (thread === undefined)
    throw new WeftError('NOT_FOUND', `thread "${threadId}" has no checkpoints to export`);
  const checkpoints: CheckpointRecord[] = [];
  const writes: TaskWritesRecord[] = [];
  for (const ns of thread.namespaces) {
    const records = (await store.list(threadId, { ns })).reverse();
    for (const record of records) {
      checkpoints.push(record);
      writes.push(...((await store.get(threadId, { ns, id: record.id }))?.writes ?? []));
    }
  }
  return { format: 'weft-thread', version: 1, threadId, checkpoints, writes };
}

/**
 * Imports an exported thread (under its own id, or `as` another), checkpoint by checkpoint in order.
 *
 * @throws {WeftError} code `INVALID_ARGUMENT` when `data` is not a thread export (naming the field);
 * `CHECKPOINT` when the target thread already has checkpoints.
 * @example
 * ```ts
 * declare const data: ThreadExport;
 * await importThread(new MemoryCheckpointer(), data, { as: 'ticket-7-copy' });
 * ```
 */
export async function importThread(
  checkpointer: Checkpointer,
  data: unknown,
  options: { readonly as?: string } = {},
): Promise<{ readonly threadId: string; readonly checkpoints: number; readonly writes: number }> {
  const exported = checkExport(data);
  const threadId = options.as ?? exported.threadId;
  if ((await checkpointer.list(threadId, { limit: 1 })).length > 0 || (await checkpointer.get(threadId)))
    throw new WeftError(
      'CHECKPOINT',
      `thread "${threadId}" already has checkpoints; import it under another id (as)`,
    );
  for (const record of exported.checkpoints) await checkpointer.put({ ...record, threadId });
  for (const write of exported.writes) await checkpointer.putWrites({ ...write, threadId });
  return { threadId, checkpoints: exported.checkpoints.length, writes: exported.writes.length };
}

function checkExport(data: unknown): ThreadExport {
  const value = data as Partial<ThreadExport> | null;
  const bad = (field: string, why: string): never => {
    throw new WeftError('INVALID_ARGUMENT', `not a Weft thread export: ${field} ${why}`);
  };
  if (typeof value !== 'object' || value === null) return bad('the document', 'is not an object');
  if (value.format !== 'weft-thread') bad('format', `is ${JSON.stringify(value.format)}, not "weft-thread"`);
  if (value.version !== 1) bad('version', `is ${JSON.stringify(value.version)}, not 1`);
  if (typeof value.threadId !== 'string') bad('threadId', 'is not a string');
  if (!Array.isArray(value.checkpoints)) bad('checkpoints', 'is not an array');
  if (!Array.isArray(value.writes)) bad('writes', 'is not an array');
  (value.checkpoints as unknown[]).forEach((record, index) => {
    const r = record as Partial<CheckpointRecord> | null;
    if (
      typeof r !== 'object' ||
      r === null ||
      typeof r.id !== 'string' ||
      typeof r.payload !== 'string' ||
      typeof r.seq !== 'number'
    )
      bad(`checkpoints[${index}]`, 'is not a checkpoint record (id, seq, payload)');
  });
  (value.writes as unknown[]).forEach((write, index) => {
    const w = write as Partial<TaskWritesRecord> | null;
    if (
      typeof w !== 'object' ||
      w === null ||
      typeof w.checkpointId !== 'string' ||
      typeof w.payload !== 'string'
    )
      bad(`writes[${index}]`, 'is not a task-writes record (checkpointId, taskId, payload)');
  });
  return value as ThreadExport;
}
