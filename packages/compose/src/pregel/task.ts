/** A unit of work in one superstep: a node and (for sends and dataflow nodes) its input. */
export interface Task {
  /** Index of the node in the topology. */
  readonly node: number;
  /** The input, when fixed at planning time (sends, dataflow inboxes); state graphs read the state. */
  readonly input: unknown;
  readonly hasInput: boolean;
  /** Deterministic id: `step:node:position`. */
  readonly id: string;
  /**
   * For a node a stream flows into (ADR 022): the position, in the same step, of the task whose chunks
   * are its input as they come. `input` is then unused.
   */
  readonly pipedFrom?: number | undefined;
}

/**
 * A task as the planner creates it: the id (`prefix:node:position`) is built only when something reads
 * it (events, checkpoints, interrupts), so unobserved runs never build the string.
 */
export class PlannedTask implements Task {
  #id: string | undefined;

  // Kept positional: one is built per task on the step's hot path, and its fields are the task's own
  // (index, input, id parts), so an options object would be a second allocation per task and no shared
  // per-step object holds them all (the position and input differ per task).
  // biome-ignore lint/complexity/useMaxParams: per-task hot path; see the comment above.
  constructor(
    readonly node: number,
    readonly input: unknown,
    readonly hasInput: boolean,
    private readonly prefix: string | number,
    private readonly nodeName: string,
    private readonly position: number,
    readonly pipedFrom?: number,
  ) {}

  get id(): string {
    this.#id ??= `${this.prefix}:${this.nodeName}:${this.position}`;
    return this.#id;
  }
}

/** One pause raised while running a task (several when a subgraph paused in parallel branches). */
export interface PendingInterrupt {
  /** Stable id, used as the key of a resume map. */
  readonly id: string;
  /** The value passed to `interrupt()`, shown to whoever answers. */
  readonly value: unknown;
  /** Node path to the node that paused (subgraphs nest). */
  readonly path: readonly string[];
  /** The task that paused. */
  readonly taskId: string;
}

/** Marks a task that paused instead of producing output. */
export class TaskPaused {
  constructor(
    readonly interrupts: readonly PendingInterrupt[],
    /** What the task's `ctx.once` calls remembered, saved with the pause (see `NodeContext.once`). */
    readonly memo: ReadonlyArray<readonly [string, unknown]> = [],
  ) {}
}
