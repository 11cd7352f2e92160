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
 * A node as task ids name it: its name, `:name:` (the middle of its tasks' ids) once made, and the last
 * id built for it with the prefix and position it was built for.
 */
interface IdNode {
  readonly name: string;
  idPart?: string | undefined;
  lastIdPrefix?: string | number | undefined;
  lastIdPosition?: number | undefined;
  lastId?: string | undefined;
}

/**
 * What the tasks of one planned step share: their ids' prefix (the step, or a subgraph-prefixed id), the
 * graph's nodes (for their names) and whether triggered nodes take an input (dataflow graphs). One per
 * step, so a task holds four fields, not seven: a map step keeps all its tasks alive until it applies
 * their writes, and at 100,000 tasks each byte a task holds is 100 KB that V8's scavenges copy.
 */
export class PlannedStep {
  /** The id of the task at position 0, once read: a chain's every step has that one task only. */
  #first: string | undefined;
  /**
   * Ids of the other positions read so far (made on first read: unobserved runs never build one). An
   * array, not a `Map`: a step's ids are read in position order (`node-start` events, checkpoints).
   */
  #ids: string[] | undefined;

  constructor(
    readonly prefix: string | number,
    readonly nodes: ReadonlyArray<IdNode>,
    readonly dataflow: boolean,
  ) {}

  /** The id of the task of `node` at `position`: `prefix:node:position`, built once. */
  idOf(node: number, position: number): string {
    if (position === 0) return (this.#first ??= this.#text(node, 0));
    const ids = (this.#ids ??= []);
    let id = ids[position];
    if (id === undefined) {
      id = this.#text(node, position);
      ids[position] = id;
    }
    return id;
  }

  /**
   * Three pieces, not five: the node's `:name:` is made once per node, so an id costs two string joins
   * (a chain builds one id a step, and the five-piece join was a tenth of a watched step's engine time).
   * The node keeps the last id it was given: a graph run again plans the same node at the same step and
   * position, so a watched run of a fixed workflow builds no id string after the first run (the number's
   * conversion and the two joins were 5 % of a watched chain step).
   */
  #text(node: number, position: number): string {
    const named = this.nodes[node] as IdNode;
    const { prefix } = this;
    if (named.lastIdPrefix === prefix && named.lastIdPosition === position) return named.lastId as string;
    const id = `${prefix}${(named.idPart ??= `:${named.name}:`)}${position}`;
    named.lastIdPrefix = prefix;
    named.lastIdPosition = position;
    named.lastId = id;
    return id;
  }
}

/**
 * A triggered node's task as the planner creates it: its node, its input (a dataflow node's inbox), its
 * position and its step. The id (`prefix:node:position`) is built only when something reads it (events,
 * checkpoints, interrupts), so unobserved runs never build the string.
 */
export class PlannedTask implements Task {
  readonly #step: PlannedStep;

  constructor(
    readonly node: number,
    readonly input: unknown,
    readonly position: number,
    step: PlannedStep,
  ) {
    this.#step = step;
  }

  /** Triggered nodes of a dataflow graph take their inbox as input; a state graph's read the state. */
  get hasInput(): boolean {
    return this.#step.dataflow;
  }

  get pipedFrom(): number | undefined {
    return undefined;
  }

  get id(): string {
    return this.#step.idOf(this.node, this.position);
  }

  /** The prefix of its id (its step's): the id is `prefix:node:position`. */
  get prefix(): string | number {
    return this.#step.prefix;
  }
}

/** A `Send`'s task: it always takes the Send's input. */
export class SentTask extends PlannedTask {
  override get hasInput(): boolean {
    return true;
  }
}

/** A task a stream flows into (ADR 022): its input is the chunks of the task at `pipedFrom`. */
export class PipedTask extends PlannedTask {
  readonly #from: number;

  constructor(node: number, position: number, step: PlannedStep, from: number) {
    super(node, undefined, position, step);
    this.#from = from;
  }

  override get hasInput(): boolean {
    return true;
  }

  override get pipedFrom(): number {
    return this.#from;
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
