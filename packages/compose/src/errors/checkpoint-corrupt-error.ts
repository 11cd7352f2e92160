import { WeftError } from './weft-error.js';

/** What gave a corrupt checkpoint away. */
export type CorruptionKind =
  /** The payload no longer matches the checksum stored with it. */
  | 'checksum'
  /** The payload is not valid checkpoint text (bad JSON, a malformed tagged value such as an invalid Date). */
  | 'encoding'
  /** A loaded value does not match the graph's state schema (a number stored as a string...). */
  | 'schema'
  /** The chain of checkpoints a delta is rebuilt from is broken: a parent is missing or loops back. */
  | 'chain'
  /** The database itself is damaged where the checkpoint is kept (a SQLite page that fails its checks). */
  | 'storage';

/**
 * A stored checkpoint (or the task writes saved against it) was changed or damaged at rest: its payload
 * fails its checksum, cannot be decoded, or holds a value the graph's state schema rejects; its parent
 * chain is broken; or the database pages holding it are damaged. Every layer reports corruption with this
 * one error (the playground answers it as HTTP 500 with its code), and loading stops instead of
 * continuing from wrong state; the rest of the store keeps serving. Names the thread, namespace and
 * checkpoint, and the state key (and task) when the damage can be placed; `code` is `CHECKPOINT_CORRUPT`.
 *
 * @example
 * ```ts
 * const app = new StateGraph(z.object({ answer: z.string().optional() }))
 *   .addNode('ask', (_s, ctx) => ({ answer: ctx.interrupt<string>('Approve?') }))
 *   .addEdge(START, 'ask')
 *   .addEdge('ask', END)
 *   .compile({ checkpointer: new MemoryCheckpointer() });
 * try {
 *   await app.getState('ticket-7');
 * } catch (error) {
 *   if (CheckpointCorruptError.isInstance(error)) console.log(error.checkpointId, error.key, error.kind);
 * }
 * ```
 */
export class CheckpointCorruptError extends WeftError {
  readonly threadId: string;
  /** The checkpoint namespace (`''` for the root graph). */
  readonly ns: string;
  /** The damaged checkpoint (for task writes: the checkpoint they were saved against). */
  readonly checkpointId: string;
  /** The state key whose stored value is wrong, when it can be told. */
  readonly key: string | undefined;
  /** The task whose saved writes are damaged, for a task-writes payload. */
  readonly taskId: string | undefined;
  readonly kind: CorruptionKind;

  constructor(options: {
    readonly record: { readonly threadId: string; readonly ns: string; readonly checkpointId: string };
    readonly kind: CorruptionKind;
    readonly reason: string;
    readonly key?: string | undefined;
    readonly taskId?: string | undefined;
    readonly cause?: unknown;
  }) {
    const { threadId, ns, checkpointId } = options.record;
    const where = `checkpoint "${checkpointId}" of thread "${threadId}"${ns === '' ? '' : ` (namespace "${ns}")`}`;
    const task = options.taskId === undefined ? '' : `, writes of task "${options.taskId}"`;
    const key = options.key === undefined ? '' : `, key "${options.key}"`;
    super('CHECKPOINT_CORRUPT', `${where} is corrupt${task}${key}: ${options.reason}`, {
      cause: options.cause,
    });
    this.name = 'CheckpointCorruptError';
    this.threadId = threadId;
    this.ns = ns;
    this.checkpointId = checkpointId;
    this.key = options.key;
    this.taskId = options.taskId;
    this.kind = options.kind;
  }

  /** True for a corruption error, also one thrown by another copy of this package. */
  static override isInstance(value: unknown): value is CheckpointCorruptError {
    return WeftError.isInstance(value) && value.code === 'CHECKPOINT_CORRUPT';
  }
}
