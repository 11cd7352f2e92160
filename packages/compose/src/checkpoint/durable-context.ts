import type { DurableContext } from '../pregel/run-context.js';
import type { CheckpointSession } from './checkpoint-session.js';
import type { DurableTarget } from './durable-target.js';

/** What a durable run's context reads as the run goes on, and what it offers its task calls. */
export interface DurableContextLive {
  /** The resume values by interrupt id, read when a task or nested graph asks (a resume replaces them). */
  readonly resumeById: () => ReadonlyMap<string, unknown>;
  /**
   * Store functional-API task calls' results as they finish (`putWrite`): Pregel mode does; DAG mode
   * records a node's output when the node finishes instead.
   */
  readonly storesTaskCalls: boolean;
}

/**
 * The checkpointing context of a durable run (what its tasks and nested subgraphs see as `run.durable`):
 * `target`'s thread, written by `session`. One builder for Pregel and DAG mode.
 */
export function durableContext(
  target: DurableTarget,
  session: CheckpointSession,
  live: DurableContextLive,
): DurableContext {
  const { resumeById } = live;
  return {
    checkpointer: target.checkpointer,
    threadId: target.threadId,
    ns: target.ns,
    durability: target.durability,
    get resumeById() {
      return resumeById();
    },
    parents: target.parents,
    taskWrites: target.taskWrites,
    currentId: () => session.currentId,
    putWrite: live.storesTaskCalls ? (taskId, write) => session.putWrite(taskId, write) : undefined,
    recordEffect: (taskId, write, fenced) => session.recordEffect(taskId, write, fenced),
  };
}
