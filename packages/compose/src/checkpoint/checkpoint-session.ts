// Over 500 lines on purpose, for now: one durable run's session with the store (claim, fence, pending
// writes, deferred checkpoints, effect records). Issue #42's item 1 replaces it with persistence as a port
// (a pure checkpoint builder, a writer queue, a restore plan); splitting it before that would only move the
// same mutable state across files.

import { checkFence } from '../effects/effect-fence.js';
import { type EffectFencing, storeEffect } from '../effects/effect-recorder.js';
import { isoNow, sortableId } from '../internal/ids.js';
import type { LoopHooks, LoopView, StepRecord } from '../pregel/loop-hooks.js';
import { type PendingInterrupt, type Task, TaskPaused } from '../pregel/task.js';
import type { CompiledNode } from '../pregel/topology.js';
import { storedStateVersion } from '../state/migration/migrate-state.js';
import { pausesOf } from './answered-pauses.js';
import { type BodyParts, bodyParts, errorInfo } from './body-parts.js';
import { joinBody, loopBodyRest, serializeBodyRest } from './body-rest.js';
import type { PausedWrite, TaskWrite } from './checkpoint-body.js';
import type { Checkpointer, CheckpointRecord, CheckpointSource, TaskWritesRecord } from './checkpointer.js';
import type { DeferredCheckpoint } from './deferred-checkpoint.js';
import {
  type CheckpointOrigin,
  checkpointMetadata,
  type DeferredRun,
  deferredNext,
  type GraphStamp,
  payloadLength,
  writtenNodes,
} from './deferred-checkpoint.js';
import type { LoadedCheckpoint } from './load.js';
import { syncPut } from './memory-checkpointer.js';
import { payloadChecksum } from './payload-checksum.js';
import { serializeChannels } from './serializer.js';
import { stepWritesText } from './step-writes-text.js';
import {
  entriesOf,
  normalizeOutput,
  type StepWrites,
  serializeTaskWrite,
  serializeWrites,
} from './write-encoding.js';

/** When checkpoints reach the store. */
export type Durability = 'sync' | 'async' | 'exit';

/** Where and how one graph run (or nested subgraph run) checkpoints. */
export interface SessionOptions {
  readonly checkpointer: Checkpointer;
  readonly threadId: string;
  readonly ns: string;
  readonly durability: Durability;
  /** The graph whose checkpoints these are: its name and state version go in every checkpoint's metadata. */
  readonly graph: GraphStamp;
  /** Checkpoint ids of enclosing graphs, by namespace (stored in metadata as `parents`). */
  readonly parents: Readonly<Record<string, string>>;
  /** Called after each stored checkpoint (for `checkpoint-save` events). */
  readonly onSaved?: (id: string, step: number) => void;
}

/** A checkpoint held by `exit` durability: its fields now, its payload built when it is stored. */
interface ExitCheckpoint {
  /** Its fields, with an empty payload until `flush`. */
  readonly record: CheckpointRecord;
  readonly parts: BodyParts;
  /** The writes of every step it stands for, in order. */
  readonly writes: Array<StepWrites[number]>;
}

/** Chain length after which a full snapshot is forced even when deltas are small. */
const maxChain = 1000;

/**
 * Writes one run's checkpoints: a checkpoint after the input and after every step (full snapshot or
 * delta of writes, whichever the snapshot policy picks), task writes of unfinished steps, and the pause
 * state. Implements the loop's hooks.
 */
export class CheckpointSession {
  /** Id of the latest checkpoint of this run (the one the current step started from). */
  currentId: string | undefined;
  private parentId: string | null = null;
  private baseId: string | undefined;
  private baseBytes = 0;
  private sinceBytes = 0;
  private sinceCount = 0;
  private upcoming: string = sortableId();
  /** `seq` of the next stored checkpoint: one more than the thread/namespace's head when the run began. */
  private nextSeq = 1;
  private source: CheckpointSource = 'input';
  /** Everything queued: checkpoints and task writes. */
  private pending: Promise<void> = Promise.resolve();
  /** The checkpoint puts alone: a checkpoint waits for the one before it, not for task writes since. */
  private checkpoints: Promise<void> = Promise.resolve();
  /** Whether everything queued is stored (`pending` fulfilled): a synchronous put may go first. */
  private idle = true;
  /** The store's synchronous put, for `sync` durability on an in-memory store (see `syncPut`). */
  private readonly putNow: ReturnType<typeof syncPut>;
  /** What this run's deferred checkpoints share (see `DeferredCheckpoint`), made at the first one. */
  private deferredRun: DeferredRun | undefined;
  /** Task writes queued last and not stored yet: a later task write joins them (see `putTask`). */
  private batch: TaskWritesRecord[] | undefined;
  /** `exit` durability: the latest checkpoint, held (unserialized) until the run ends, pauses or fails. */
  private unsaved: ExitCheckpoint | undefined;
  /** `exit` durability: outputs of the current step's finished tasks, stored if the step does not complete. */
  private held: Map<string, TaskWrite> | undefined;
  private readonly saved = new Set<string>();
  /** The next checkpoint is a full snapshot whatever its size (see {@link forceSnapshot}). */
  private snapshotNext = false;
  /** Pauses stored against the checkpoint this run continues from: the outputs answering them keep them. */
  private pauses: ReadonlyMap<string, PausedWrite> | undefined;

  constructor(private readonly options: SessionOptions) {
    this.parents = { ...options.parents };
    this.origin = { parents: this.parents, graph: options.graph };
    this.putNow = options.durability === 'sync' ? syncPut(options.checkpointer) : undefined;
  }

  /**
   * Continues a thread from a loaded checkpoint; `fork` marks the next checkpoint as a fork. `headSeq` is
   * the `seq` of the namespace's head (the loaded checkpoint's own unless it forks from an older one): the
   * next checkpoint takes the position after it, so a racing writer's `put` conflicts.
   */
  continueFrom(loaded: LoadedCheckpoint, fork: boolean, headSeq = loaded.record.seq): void {
    this.nextSeq = headSeq + 1;
    this.currentId = loaded.record.id;
    this.parentId = loaded.record.id;
    this.baseId = loaded.record.baseId;
    this.sinceBytes = loaded.body.sinceBase.bytes;
    this.sinceCount = loaded.body.sinceBase.count;
    this.baseBytes = loaded.body.values ? loaded.record.payload.length : Math.max(this.sinceBytes, 1);
    this.source = fork ? 'fork' : 'loop';
    this.pauses = fork ? undefined : pausesOf(loaded);
    // Continuing from an older checkpoint starts its own snapshot: the new branch never reads the older
    // chain again, so retention may drop that chain without breaking it (see `pruneCheckpoints`).
    if (headSeq !== loaded.record.seq) this.snapshotNext = true;
    // State loaded from an older state version was migrated: the next checkpoint stores it so, in full.
    if (storedStateVersion(loaded.record) !== this.options.graph.versioning.version) this.snapshotNext = true;
  }

  /** Marks the first checkpoint of this run as written for new input. */
  startInput(): void {
    this.source = 'input';
  }

  /**
   * Makes the next checkpoint a full snapshot: for writers whose writes, replayed in order over the
   * parent, would not rebuild the state (a DAG run's later nodes may sort before committed ones).
   */
  forceSnapshot(): void {
    this.snapshotNext = true;
  }

  /** Sets the source recorded on the next checkpoint. */
  markSource(source: CheckpointSource): void {
    this.source = source;
  }

  /**
   * Writes the fork checkpoint of a replay at once: the loaded checkpoint's values and step, the loop's
   * (renewed) next tasks, no writes. It becomes the thread's head, so a replay that pauses before any
   * step completes can be resumed without naming a checkpoint.
   */
  saveFork(loop: LoopView): Promise<void> | undefined {
    this.source = 'fork';
    return this.afterStep(loop, { writes: [], changed: [] }, loop.step - 1);
  }

  /** The loop hooks that write this session's checkpoints. */
  hooks(): LoopHooks {
    return {
      afterStep: (loop, record) => this.afterStep(loop, record),
      taskDone: (loop, task, output) => this.saveTask(loop, task, output),
      taskFailed: (loop, task, error) => this.saveFailure(loop, task, error),
      paused: (loop, outputs, interrupts) => this.paused(loop, outputs, interrupts),
      taskPrefix: () => this.upcoming,
    };
  }

  /** Waits until every checkpoint and task write of this run is stored. */
  async flush(): Promise<void> {
    if (this.unsaved) {
      const { record, parts, writes } = this.unsaved;
      this.unsaved = undefined;
      // The held checkpoint stands for every step since the last stored one: it takes one position.
      this.nextSeq++;
      // Writes first: a value that cannot be stored came from a write, whose error names its node.
      const writesText = serializeWrites(writes);
      const rest = { next: parts.next, routing: parts.routing, sinceBase: { bytes: 0, count: 0 } };
      const payload = joinBody(serializeChannels(parts.values), writesText, serializeBodyRest(rest));
      this.baseBytes = payload.length;
      this.enqueue(
        () => this.options.checkpointer.put({ ...record, payload, checksum: payloadChecksum(payload) }),
        () => this.options.onSaved?.(record.id, record.step),
      );
      this.checkpoints = this.pending;
    }
    if (this.held) {
      const held = this.held;
      this.held = undefined;
      for (const [taskId, write] of held) void this.putTask(taskId, write);
    }
    await this.pending;
  }

  private afterStep(loop: LoopView, record: StepRecord, step = loop.step): Promise<void> | undefined {
    this.held = undefined;
    const id = this.upcoming;
    const now = Date.now();
    this.upcoming = sortableId(now);
    if (this.options.durability === 'exit') {
      const writes = record.writes.map(([node, update]) => [node, entriesOf(update)] as const);
      this.holdForExit(loop, { record, id, writes, step });
      return undefined;
    }
    const writesText = stepWritesText(record.writes);
    const base =
      this.snapshotNext ||
      this.baseId === undefined ||
      this.sinceBytes + writesText.length >= this.baseBytes ||
      this.sinceCount >= maxChain;
    this.snapshotNext = false;
    this.sinceBytes = base ? 0 : this.sinceBytes + writesText.length;
    this.sinceCount = base ? 0 : this.sinceCount + 1;
    // Handed over to an idle in-memory store, the record leaves its checksum to the store (see `syncPut`).
    const putNow = this.idle ? this.putNow : undefined;
    const next = putNow !== undefined ? deferredNext(loop, id) : undefined;
    if (putNow !== undefined && next !== undefined) {
      // A plain step: handed over as its parts, its text and metadata made when the row is first read.
      const values = base ? serializeChannels(loop.values) : undefined;
      if (base) this.baseId = id;
      const fields = { record, id, step, payload: writesText, checksum: '', now };
      const deferred = this.deferred(loop, { fields, next, values });
      if (base) this.baseBytes = payloadLength(deferred);
      this.advance(id);
      putNow(deferred);
      this.options.onSaved?.(id, step);
      return undefined;
    }
    const sinceBase = { bytes: this.sinceBytes, count: this.sinceCount };
    const values = base ? serializeChannels(loop.values) : undefined;
    const payload = joinBody(values, writesText, loopBodyRest(loop, sinceBase));
    if (base) {
      this.baseId = id;
      this.baseBytes = payload.length;
    }
    const checksum = putNow !== undefined ? '' : payloadChecksum(payload);
    const fields = { record, id, step, payload, checksum, now };
    const checkpoint = this.checkpointRecord(fields, this.parentId, this.source);
    this.advance(id);
    const { onSaved } = this.options;
    if (putNow !== undefined) {
      // Nothing queued: stored before the next step, as `sync` asks, without a promise to wait for.
      putNow(checkpoint);
      onSaved?.(id, step);
      return undefined;
    }
    this.enqueueCheckpoint(
      () => this.options.checkpointer.put(checkpoint),
      onSaved && (() => onSaved(id, step)),
    );
    return this.options.durability === 'sync' ? this.pending : undefined;
  }

  /**
   * The deferred checkpoint of a plain step (see `DeferredCheckpoint`); `fields.payload` is the step's
   * writes text. Its fields are those {@link checkpointRecord} would give the record.
   */
  private deferred(loop: LoopView, parts: DeferredParts): DeferredCheckpoint {
    const { fields, next, values } = parts;
    let run = this.deferredRun;
    if (run === undefined || run.topology !== loop.topology) {
      const { threadId, ns } = this.options;
      const { topology } = loop;
      run = this.deferredRun = { threadId, ns, parents: this.parents, topology, quotedLengths: [] };
    }
    return {
      id: fields.id,
      seq: this.nextSeq,
      parentId: this.parentId,
      baseId: this.baseId as string,
      step: fields.step,
      source: this.source,
      createdAt: isoNow(fields.now),
      values,
      writes: fields.payload,
      nodes: writtenNodes(fields.record),
      next,
      sinceBytes: this.sinceBytes,
      sinceCount: this.sinceCount,
      run,
    };
  }

  /** The checkpoint `id` was written (or queued): the next one takes the next position after it. */
  private advance(id: string): void {
    this.nextSeq++;
    this.source = 'loop';
    this.parentId = id;
    this.currentId = id;
  }

  /**
   * `exit` durability: one checkpoint for the steps since the last stored one, replacing the held one
   * (keeping its parent and source) and carrying all their writes, which a resumed subgraph hands its
   * parent (see `collectNestedWrites`). Nothing is serialized until `flush`: a step keeps references to
   * its values (never changed in place) and its writes, and copies the loop's tasks and
   * routing in stored form, so a long run costs no serialization per step.
   */
  private holdForExit(loop: LoopView, step: HeldStep): void {
    const { record, id, writes } = step;
    const held = this.unsaved;
    this.baseId = id;
    const fields = { record, id, step: step.step, payload: '', checksum: '', now: Date.now() };
    const checkpoint = held
      ? this.checkpointRecord(fields, held.record.parentId, held.record.source)
      : this.checkpointRecord(fields, this.parentId, this.source);
    const allWrites: Array<StepWrites[number]> = held ? held.writes : [];
    allWrites.push(...writes);
    this.unsaved = { record: checkpoint, parts: bodyParts(loop), writes: allWrites };
    this.sinceBytes = 0;
    this.sinceCount = 0;
    this.source = 'loop';
    this.parentId = id;
    this.currentId = id;
  }

  /** One literal with every field (spreading a record into another costs more than building it). */
  private checkpointRecord(
    fields: CheckpointFields,
    parentId: string | null,
    source: CheckpointSource,
  ): CheckpointRecord {
    const { record, id, step, payload, checksum } = fields;
    return {
      threadId: this.options.threadId,
      ns: this.options.ns,
      id,
      seq: this.nextSeq,
      parentId,
      baseId: this.baseId ?? id,
      step,
      source,
      createdAt: isoNow(fields.now),
      metadata: checkpointMetadata(step, source, writtenNodes(record), this.origin),
      payload,
      checksum,
    };
  }

  /** The enclosing graphs' checkpoint ids, copied once per run and shared by its checkpoints' metadata. */
  private readonly parents: Readonly<Record<string, string>>;
  /** The parents and the graph, as every checkpoint's metadata records them. */
  private readonly origin: CheckpointOrigin;

  /**
   * Stores a finished task's writes at once, without making its step wait for them: the step's
   * checkpoint is put beside them (see {@link enqueueCheckpoint}), so both can share one commit, and
   * the step is durable when both are stored (`afterStep` returns `pending`, which holds both).
   */
  private saveTask(loop: LoopView, task: Task, output: unknown): undefined {
    if (output instanceof TaskPaused) return undefined;
    const node = (loop.topology.nodes[task.node] as CompiledNode).name;
    const answered = this.pauses?.get(task.id);
    const write: TaskWrite = answered
      ? { kind: 'output', node, output: normalizeOutput(output), answered }
      : { kind: 'output', node, output: normalizeOutput(output) };
    if (this.options.durability !== 'exit') {
      // A failure is seen by whoever awaits `pending` next (the step's checkpoint, `flush`).
      void this.putTask(task.id, write).catch(() => undefined);
      return undefined;
    }
    (this.held ??= new Map()).set(task.id, write);
    return undefined;
  }

  /**
   * Stores a write of a task that is still running (a functional-API task call's result) against the
   * checkpoint its step started from; with `exit` durability it is held like a finished task's output.
   * Resolves when it is stored.
   */
  putWrite(taskId: string, write: TaskWrite): Promise<void> | undefined {
    if (this.options.durability !== 'exit') return this.putTask(taskId, write);
    (this.held ??= new Map()).set(taskId, write);
    return undefined;
  }

  /**
   * Stores an effect's record against the checkpoint its step started from, now whatever the
   * durability (an effect must outlive a crash right after it), queued after what is queued so it never
   * lands before the checkpoint it names, and only while the fence holds (see `storeEffect`). Resolves
   * when it is stored; a failure also reaches whoever awaits the queue next.
   */
  recordEffect(taskId: string, write: TaskWrite, fenced: EffectFencing): Promise<void> {
    const checkpointId = this.currentId;
    if (checkpointId === undefined) return checkFence(fenced.fence, fenced.where);
    const payload = serializeTaskWrite(write);
    const { threadId, ns, checkpointer } = this.options;
    const record = { threadId, ns, checkpointId, taskId, payload, checksum: payloadChecksum(payload) };
    this.enqueue(() => storeEffect(checkpointer, record, fenced));
    return this.pending;
  }

  /** Puts a failed task on record against its step's checkpoint (`getState` shows it with its error). */
  private saveFailure(loop: LoopView, task: Task, error: unknown): void {
    const node = (loop.topology.nodes[task.node] as CompiledNode).name;
    const write: TaskWrite = { kind: 'error', node, error: errorInfo(error) };
    if (this.options.durability !== 'exit') void this.putTask(task.id, write);
    else (this.held ??= new Map()).set(task.id, write);
  }

  private async paused(
    loop: LoopView,
    outputs: readonly unknown[],
    interrupts: readonly PendingInterrupt[],
  ): Promise<void> {
    await this.flush();
    loop.tasks.forEach((task, i) => {
      const output = outputs[i];
      const node = (loop.topology.nodes[task.node] as CompiledNode).name;
      if (output instanceof TaskPaused) {
        const resumed = [...(loop.resumedFor(task.id) ?? [])];
        const memo = output.memo.length > 0 ? { memo: output.memo } : {};
        void this.putTask(task.id, { kind: 'paused', node, interrupts: output.interrupts, resumed, ...memo });
      } else if (i in outputs) {
        // A finished task, also one that wrote nothing: it must not run again on resume.
        if (!this.saved.has(task.id))
          void this.putTask(task.id, { kind: 'output', node, output: normalizeOutput(output) });
      } else {
        // A task stopped by a breakpoint before it ran: recorded, so continuing passes the breakpoint once.
        const hits = interrupts.filter((interrupt) => interrupt.taskId === task.id);
        if (hits.length > 0)
          void this.putTask(task.id, { kind: 'paused', node, interrupts: hits, resumed: [] });
      }
    });
    await this.pending;
  }

  /**
   * Queues a task write. Writes queued one after another while the queue is busy (nodes of a DAG that
   * finished together) join one batch, stored with one `putWritesBatch` call when the store has it.
   */
  private putTask(taskId: string, write: TaskWrite): Promise<void> {
    const checkpointId = this.currentId;
    if (checkpointId === undefined) return Promise.resolve();
    this.saved.add(taskId);
    const payload = serializeTaskWrite(write);
    const { threadId, ns } = this.options;
    const record = { threadId, ns, checkpointId, taskId, payload, checksum: payloadChecksum(payload) };
    if (this.batch) {
      this.batch.push(record);
      return this.pending;
    }
    const batch = [record];
    this.enqueue(() => {
      // Later writes start a new batch (this one is being stored).
      if (this.batch === batch) this.batch = undefined;
      return putBatch(this.options.checkpointer, batch);
    });
    this.batch = batch;
    return this.pending;
  }

  /** Queues store work after what is queued; it ends the open batch, so store calls keep their order. */
  private enqueue(work: () => Promise<void>, after?: () => void): void {
    this.batch = undefined;
    const queued = this.pending.then(work);
    this.queued(after ? queued.then(after) : queued);
  }

  /** Makes `pending` the queue's new tail; with a synchronous put, the queue is busy until it is stored. */
  private queued(pending: Promise<void>): void {
    this.pending = pending;
    if (this.putNow === undefined) return;
    // Idle again once this is stored and nothing was queued after it; a failure keeps the queue busy,
    // so the next checkpoint waits behind it and the run sees the error.
    this.idle = false;
    pending.then(() => {
      if (this.pending === pending) this.idle = true;
    }, ignore);
  }

  /**
   * Queues a step's checkpoint after the checkpoints before it, but beside the task writes queued since
   * the last one (its own step's tasks' writes, still being stored): the put does not wait for them, so
   * a group-committing store takes both in one commit, and a plain one commits them concurrently. The
   * order that matters is kept: checkpoints in sequence, and a task write after the checkpoint it names
   * (later task writes queue after `pending`, which holds this put). Either one landing first is safe —
   * the checkpoint carries the step's writes, and a task write only saves re-running its task.
   */
  private enqueueCheckpoint(work: () => Promise<void>, after?: () => void): void {
    this.batch = undefined;
    const put = this.checkpoints.then(work);
    const stored = after ? put.then(after) : put;
    this.checkpoints = stored;
    this.queued(Promise.all([this.pending, stored]).then(ignore));
  }
}

/** The fields of a checkpoint that come from the step it stands for. */
interface CheckpointFields {
  readonly record: StepRecord;
  readonly id: string;
  readonly step: number;
  readonly payload: string;
  /**
   * The payload's checksum; `''` for the held checkpoint of `exit` durability (stamped at `flush`) and
   * for a record handed over to an in-memory store (stamped by the store, see `syncPut`).
   */
  readonly checksum: string;
  /** The clock read of the step's checkpoint (`Date.now()`), for its `createdAt`. */
  readonly now: number;
}

/** What {@link CheckpointSession} makes a deferred checkpoint from besides the session's own fields. */
interface DeferredParts {
  readonly fields: CheckpointFields;
  readonly next: DeferredCheckpoint['next'];
  /** The values' text of a full snapshot, else `undefined`. */
  readonly values: string | undefined;
}

/** A step `exit` durability holds: its fields and its writes in stored form. */
interface HeldStep {
  readonly record: StepRecord;
  readonly id: string;
  readonly step: number;
  readonly writes: StepWrites;
}

/** Nothing to do: a settled value not needed, or a rejection left to whoever awaits the queue. */
const ignore = (): void => undefined;

/** Stores a batch of task writes: in one call when the store can, else one by one, in order. */
async function putBatch(checkpointer: Checkpointer, batch: readonly TaskWritesRecord[]): Promise<void> {
  if (batch.length > 1 && checkpointer.putWritesBatch) return checkpointer.putWritesBatch(batch);
  for (const record of batch) await checkpointer.putWrites(record);
}
