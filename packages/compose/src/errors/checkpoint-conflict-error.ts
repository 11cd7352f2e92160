import { WeftError } from './weft-error.js';

/**
 * Another writer holds the thread, or moved its head since this one read it: two runs (or a run and an
 * `updateState`) tried to continue one thread at the same time. Exactly one of them proceeds; the other
 * gets this error before any of its nodes runs (or, for a writer whose claim was lost, before its next
 * checkpoint is stored). Retry after the other writer finished, or use another thread.
 *
 * @example
 * ```ts
 * const app = new StateGraph(z.object({ answer: z.string().optional() }))
 *   .addNode('ask', (_s, ctx) => ({ answer: ctx.interrupt<string>('Approve?') }))
 *   .addEdge(START, 'ask')
 *   .addEdge('ask', END)
 *   .compile({ checkpointer: new MemoryCheckpointer() });
 * try {
 *   await app.invoke(new Command({ resume: 'approve' }), { threadId: 'ticket-7' });
 * } catch (error) {
 *   if (CheckpointConflictError.isInstance(error)) console.log(`${error.threadId} is busy`);
 * }
 * ```
 */
export class CheckpointConflictError extends WeftError {
  /** The thread two writers raced on. */
  readonly threadId: string;
  /** The checkpoint namespace (`''` for the root graph). */
  readonly ns: string;

  constructor(threadId: string, ns: string, reason: string, options?: { cause?: unknown }) {
    super(
      'CHECKPOINT_CONFLICT',
      `thread "${threadId}"${ns === '' ? '' : ` (namespace "${ns}")`} ${reason}; one writer per thread: retry once the other run finished`,
      options,
    );
    this.name = 'CheckpointConflictError';
    this.threadId = threadId;
    this.ns = ns;
  }

  /** True for a conflict error, also one thrown by another copy of this package. */
  static override isInstance(value: unknown): value is CheckpointConflictError {
    return WeftError.isInstance(value) && value.code === 'CHECKPOINT_CONFLICT';
  }
}
