// A Weft `StateSnapshot` as the LangGraph API's `ThreadState`.
import type { JsonValue, StateSnapshot } from '@weft/compose';
import { toJson } from './json-value.js';
import { withLcMessages } from './lc-messages.js';
import { apiInterrupts } from './stream-mapping.js';

/** The API's checkpoint address. */
export interface ApiCheckpoint {
  readonly thread_id: string;
  readonly checkpoint_ns: string;
  readonly checkpoint_id: string | null;
  readonly checkpoint_map: null;
}

const checkpointOf = (threadId: string, id: string | null, ns = ''): ApiCheckpoint => ({
  thread_id: threadId,
  checkpoint_ns: ns,
  checkpoint_id: id,
  checkpoint_map: null,
});

/** The state of a thread without checkpoints, as the reference answers it. */
export function emptyState(threadId: string): JsonValue {
  return {
    values: {},
    next: [],
    tasks: [],
    metadata: {},
    created_at: null,
    checkpoint: { ...checkpointOf(threadId, null) },
    parent_checkpoint: null,
    interrupts: [],
  };
}

/** A snapshot as the API's thread state. */
export function apiState(snapshot: StateSnapshot<unknown>, threadId: string, ns = ''): JsonValue {
  return {
    values: withLcMessages(toJson(snapshot.values)),
    next: [...snapshot.next],
    tasks: snapshot.tasks.map((task) => ({
      id: task.id,
      name: task.node,
      error: task.error ? `${task.error.name}: ${task.error.message}` : null,
      interrupts: apiInterrupts(task.interrupts),
      checkpoint: task.ns === undefined ? null : { ...checkpointOf(threadId, null, task.ns) },
      state: task.state === undefined ? null : apiState(task.state, threadId, task.ns ?? ''),
    })),
    metadata: toJson({ ...snapshot.metadata, step: snapshot.step, source: snapshot.source }),
    created_at: snapshot.createdAt,
    checkpoint: { ...checkpointOf(threadId, snapshot.checkpointId, ns) },
    parent_checkpoint:
      snapshot.parentId === null ? null : { ...checkpointOf(threadId, snapshot.parentId, ns) },
    interrupts: apiInterrupts(snapshot.interrupts),
  };
}
