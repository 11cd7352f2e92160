import type { Breakpoints } from '../pregel/breakpoints.js';
import type { DriveResult } from '../pregel/drive.js';
import type { RunContext } from '../pregel/run-context.js';
import type { Topology } from '../pregel/topology.js';
import type { Durability } from './checkpoint-session.js';
import type { Checkpointer } from './checkpointer.js';

/** Where a durable run reads and writes its checkpoints. */
export interface DurableTarget {
  readonly checkpointer: Checkpointer;
  readonly threadId: string;
  readonly ns: string;
  readonly durability: Durability;
  readonly parents: Readonly<Record<string, string>>;
  /** Continue from this checkpoint instead of the latest (time travel / fork). */
  readonly checkpointId?: string | undefined;
  readonly breakpoints?: Breakpoints | undefined;
  /** `all`: every finished task stores its writes at once (see `RunOptions.taskWrites`). */
  readonly taskWrites?: 'parallel' | 'all' | undefined;
  /** Resume values inherited from an enclosing run, by interrupt id. */
  readonly resumeById?: ReadonlyMap<string, unknown>;
  /**
   * A subgraph run inside a checkpointed parent task: an unfinished checkpoint in its namespace is
   * continued (the parent task is being resumed), a finished one returns its result without running.
   */
  readonly nested?: boolean;
  /** A nested graph that keeps its state: a finished checkpoint is continued as a new turn with the input. */
  readonly keepsState?: boolean;
}

/** A durable run's outcome and the id of its latest checkpoint (built by `withWrites`, as a plain run's). */
export type DurableResult = DriveResult;

/** One durable run, as `runDurable` (and a DAG run, `runDagDurable`) takes it. */
export interface DurableRun {
  readonly topology: Topology;
  readonly run: RunContext;
  /** New input, `null` to continue, or a `Command`. */
  readonly input: unknown;
  /** Where its checkpoints are read and written. */
  readonly target: DurableTarget;
  /** Keep the writes of the graph's nodes, in order (a nested state graph hands them to its parent). */
  readonly recordWrites?: boolean | undefined;
}
