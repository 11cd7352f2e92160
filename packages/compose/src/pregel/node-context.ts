/**
 * What a node receives besides its input.
 *
 * @example
 * ```ts
 * graph.addNode('fetch', async (state, ctx) => {
 *   const response = await fetch(state.url, { signal: ctx.signal });
 *   ctx.emit({ status: response.status });
 *   return { body: await response.text() };
 * });
 * ```
 */
export interface NodeContext {
  /** Fires when the run is cancelled or this attempt times out; pass it to anything cancellable. */
  readonly signal: AbortSignal;
  /** The superstep this task runs in. */
  readonly step: number;
  /** This node's name. */
  readonly node: string;
  /** Node names from the outermost graph to this node (subgraphs nest). */
  readonly path: readonly string[];
  /** The task's id, unique within its thread and namespace. */
  readonly taskId: string;
  /** The attempt number (1-based; greater than 1 on retries). */
  readonly attempt: number;
  /** The run's id. */
  readonly runId: string;
  /** The thread, when the run has one. */
  readonly threadId: string | undefined;
  /** User values passed as `config` to `invoke`/`stream`. */
  readonly config: Readonly<Record<string, unknown>>;
  /** Sends a value to `custom` stream subscribers (a no-op when nobody listens). */
  emit(data: unknown): void;
  /**
   * Pauses the run and asks for a value: the run returns with this interrupt pending; resuming with
   * `Command({ resume })` re-runs the node and this call then returns the resume value. Several calls
   * in one node are matched in order. Requires a checkpointer and a `threadId`.
   */
  interrupt<TResume = unknown>(value: unknown): TResume;
}
