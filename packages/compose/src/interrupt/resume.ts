import type { LoadedCheckpoint } from '../checkpoint/load.js';
import { restoreOutput } from '../checkpoint/write-encoding.js';
import { WeftError } from '../errors/weft-error.js';
import type { PendingInterrupt, Task } from '../pregel/task.js';
import type { ResumeValues } from '../pregel/task-context.js';

/** How a restored step continues: outputs not to recompute, resume values per task, and the rest. */
export interface ResumePlan {
  /** Outputs of tasks that finished before the pause, by task position. */
  readonly known: Map<number, unknown>;
  /** Resume values for tasks that paused themselves, by task id. */
  readonly resume: Map<string, ResumeValues>;
  /** What the `ctx.once` calls of paused tasks remembered, by task id. */
  readonly memo: Map<string, ReadonlyMap<string, unknown>>;
  /** Resume values for every pending interrupt (nested ones included), by interrupt id. */
  readonly byId: Map<string, unknown>;
  /** The interrupts that were pending. */
  readonly pending: readonly PendingInterrupt[];
}

/** A resume answer: a value given to `Command({ resume })`, or values inherited from an enclosing run. */
export type ResumeAnswer =
  | { readonly kind: 'value'; readonly value: unknown }
  | { readonly kind: 'inherited'; readonly byId: ReadonlyMap<string, unknown> };

/** The interrupts pending at a checkpoint (saved with paused tasks). */
export function pendingInterrupts(loaded: LoadedCheckpoint): PendingInterrupt[] {
  const pending: PendingInterrupt[] = [];
  for (const write of loaded.taskWrites.values())
    if (write.kind === 'paused') pending.push(...write.interrupts);
  return pending;
}

/**
 * Matches a resume value to the pending interrupts of a checkpoint: a map `{ [interruptId]: value }`
 * answers several, a single value answers the only one.
 *
 * @throws WeftError `INVALID_RESUME` when a single value is given for several pauses, or a map names an
 *   interrupt that is not pending.
 */
export function planResume(
  loaded: LoadedCheckpoint,
  tasks: readonly Task[],
  answer: ResumeAnswer,
): ResumePlan {
  const pending = pendingInterrupts(loaded);
  const byId =
    answer.kind === 'value'
      ? matchValues(pending, answer.value)
      : new Map([...answer.byId].filter(([id]) => pending.some((p) => p.id === id)));
  const known = new Map<number, unknown>();
  const resume = new Map<string, ResumeValues>();
  const memo = callResults(loaded);
  tasks.forEach((task, position) => {
    const write = loaded.taskWrites.get(task.id);
    if (!write || write.kind === 'error' || write.kind === 'call') return;
    if (write.kind === 'output') {
      known.set(position, restoreOutput(write.output));
      return;
    }
    if (write.memo && write.memo.length > 0)
      memo.set(task.id, new Map([...(memo.get(task.id) ?? []), ...write.memo]));
    const values = new Map<number | string, unknown>(write.resumed);
    for (const interrupt of write.interrupts) {
      if (interrupt.taskId !== task.id || !byId.has(interrupt.id)) continue;
      values.set(interruptPosition(interrupt.id), byId.get(interrupt.id));
    }
    if (values.size > 0) resume.set(task.id, values);
  });
  return { known, resume, memo, byId, pending };
}

/**
 * The results of calls that tasks finished before a pause or a crash (functional-API task calls), by the
 * task that made them: restored into its `ctx.once` memo, so the task skips them when it runs again.
 */
function callResults(loaded: LoadedCheckpoint): Map<string, Map<string, unknown>> {
  const byOwner = new Map<string, Map<string, unknown>>();
  for (const write of loaded.taskWrites.values()) {
    if (write.kind !== 'call') continue;
    let calls = byOwner.get(write.owner);
    if (!calls) byOwner.set(write.owner, (calls = new Map()));
    calls.set(write.key, write.output);
  }
  return byOwner;
}

/** The position part of an interrupt id (`<task id>:<position>`): a number, or a task call's `t<call>-<n>`. */
function interruptPosition(id: string): number | string {
  const tail = id.slice(id.lastIndexOf(':') + 1);
  return /^\d+$/.test(tail) ? Number(tail) : tail;
}

/**
 * Maps a resume value to pending interrupt ids (strict). An object is a map `{ [interruptId]: value }`
 * when one of its keys is a pending interrupt id or every key has the shape of an id (see
 * {@link isIdShaped}); any other value answers the only pending interrupt.
 *
 * @throws WeftError `INVALID_RESUME` when nothing is pending, when a map names an interrupt that is not
 *   pending, or when a single value is given while several are pending; the message lists the pending ids.
 */
export function matchValues(pending: readonly PendingInterrupt[], value: unknown): Map<string, unknown> {
  const ids = new Set(pending.map((p) => p.id));
  const listed = [...ids].join(', ') || 'none';
  if (pending.length === 0) {
    throw new WeftError(
      'INVALID_RESUME',
      `Command({ resume }) answers nothing: no interrupt is pending on this thread (pending: none); run it with new input or null instead`,
    );
  }
  if (isIdMap(value, ids)) {
    const map = new Map(Object.entries(value as Record<string, unknown>));
    const unknown = [...map.keys()].filter((id) => !ids.has(id));
    if (unknown.length > 0) {
      throw new WeftError(
        'INVALID_RESUME',
        `no pending interrupt has id ${unknown.map((id) => `"${id}"`).join(', ')}; pending: ${listed}`,
      );
    }
    return map;
  }
  if (pending.length > 1) {
    throw new WeftError(
      'INVALID_RESUME',
      `${pending.length} interrupts are pending (${listed}); resume with a map { [interruptId]: value }`,
    );
  }
  return new Map(pending.map((p) => [p.id, value]));
}

/**
 * The shape of an interrupt id: a task id (`<prefix>:<node>:<position>`) and the call (`:<n>`, or
 * `:t<call>-<n>` inside a functional-API task call).
 */
const interruptIdShape = /^[^:]+:.+:\d+:(\d+|before|after|t[\d.]+-\d+)$/;
/** Words joined by `-` or `:` (`no-such-id`, a UUID, a mistyped Weft id): how ids look, not field names. */
const separatedShape = /^[\w.]+(?:[-:][\w.]+)+$/;
/** LangGraph's interrupt ids (32 hex digits), which code ported from it may still hold. */
const hashShape = /^[0-9a-f]{32}$/i;

/**
 * Whether a resume map key looks like an id rather than a field of an answer: a Weft interrupt id, a
 * LangGraph one, or words joined by `-` or `:`. Plain names (`approved`, `note_text`, `Content Type`) are not.
 */
function isIdShaped(key: string): boolean {
  return interruptIdShape.test(key) || hashShape.test(key) || separatedShape.test(key);
}

function isIdMap(value: unknown, ids: ReadonlySet<string>): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null)
    return false;
  const keys = Object.keys(value);
  if (keys.length === 0) return false;
  return keys.some((key) => ids.has(key)) || keys.every(isIdShaped);
}
