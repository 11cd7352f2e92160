import { START } from '../graph/constants.js';
import { sortableId } from '../internal/ids.js';
import type { LoopHooks, PregelLoop, StepRecord } from '../pregel/loop.js';
import { SubgraphWrites } from '../pregel/subgraph-writes.js';
import { type PendingInterrupt, type Task, TaskPaused } from '../pregel/task.js';
import type { CompiledNode } from '../pregel/topology.js';
import type { CheckpointBody, TaskWrite } from './checkpoint-body.js';
import type { Checkpointer, CheckpointSource, JsonValue } from './checkpointer.js';
import type { LoadedCheckpoint } from './load.js';
import { storeRouting, storeTasks } from './loop-state.js';
import { serialize, serializeChannels } from './serializer.js';

/** When checkpoints reach the store. */
export type Durability = 'sync' | 'async' | 'exit';

/** Where and how one graph run (or nested subgraph run) checkpoints. */
export interface SessionOptions {
  readonly checkpointer: Checkpointer;
  readonly threadId: string;
  readonly ns: string;
  readonly durability: Durability;
  /** Checkpoint ids of enclosing graphs, by namespace (stored in metadata as `parents`). */
  readonly parents: Readonly<Record<string, string>>;
  /** Called after each stored checkpoint (for `checkpoint-save` events). */
  readonly onSaved?: (id: string, step: number) => void;
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
  private source: CheckpointSource = 'input';
  private pending: Promise<void> = Promise.resolve();
  private unsaved: { record: Parameters<Checkpointer['put']>[0] } | undefined;
  private readonly saved = new Set<string>();

  constructor(private readonly options: SessionOptions) {}

  /** Continues a thread from a loaded checkpoint; `fork` marks the next checkpoint as a fork. */
  continueFrom(loaded: LoadedCheckpoint, fork: boolean): void {
    this.currentId = loaded.record.id;
    this.parentId = loaded.record.id;
    this.baseId = loaded.record.baseId;
    this.sinceBytes = loaded.body.sinceBase.bytes;
    this.sinceCount = loaded.body.sinceBase.count;
    this.baseBytes = loaded.body.values ? loaded.record.payload.length : Math.max(this.sinceBytes, 1);
    this.source = fork ? 'fork' : 'loop';
  }

  /** Marks the first checkpoint of this run as written for new input. */
  startInput(): void {
    this.source = 'input';
  }

  /** Sets the source recorded on the next checkpoint. */
  markSource(source: CheckpointSource): void {
    this.source = source;
  }

  /** The loop hooks that write this session's checkpoints. */
  hooks(): LoopHooks {
    return {
      afterStep: (loop, record) => this.afterStep(loop, record),
      taskDone: (loop, task, output) => this.saveTask(loop, task, output),
      paused: (loop, outputs, interrupts) => this.paused(loop, outputs, interrupts),
      taskPrefix: () => this.upcoming,
    };
  }

  /** Waits until every checkpoint and task write of this run is stored. */
  async flush(): Promise<void> {
    if (this.unsaved) {
      const { record } = this.unsaved;
      this.unsaved = undefined;
      this.enqueue(() => this.options.checkpointer.put(record));
    }
    await this.pending;
  }

  private afterStep(loop: PregelLoop, record: StepRecord): Promise<void> | undefined {
    const writes = record.writes.map(([node, update]) => [node, entriesOf(update)] as const);
    const writesText = serializeWrites(writes);
    const exit = this.options.durability === 'exit';
    const base =
      exit ||
      this.baseId === undefined ||
      this.sinceBytes + writesText.length >= this.baseBytes ||
      this.sinceCount >= maxChain;
    const id = this.upcoming;
    this.upcoming = sortableId();
    const sinceBase = base
      ? { bytes: 0, count: 0 }
      : { bytes: this.sinceBytes + writesText.length, count: this.sinceCount + 1 };
    const payload = encodeBody(
      loop,
      writesText,
      base ? serializeChannels(loop.values) : undefined,
      sinceBase,
    );
    if (base) {
      this.baseId = id;
      this.baseBytes = payload.length;
    }
    this.sinceBytes = sinceBase.bytes;
    this.sinceCount = sinceBase.count;
    const checkpoint = {
      threadId: this.options.threadId,
      ns: this.options.ns,
      id,
      parentId: exit && this.unsaved ? this.unsaved.record.parentId : this.parentId,
      baseId: this.baseId as string,
      step: loop.step,
      source: this.source,
      createdAt: new Date().toISOString(),
      metadata: this.metadata(loop.step, record),
      payload,
    };
    this.source = 'loop';
    this.parentId = id;
    this.currentId = id;
    if (exit) {
      this.unsaved = { record: checkpoint };
      return undefined;
    }
    this.enqueue(
      () => this.options.checkpointer.put(checkpoint),
      () => this.options.onSaved?.(id, checkpoint.step),
    );
    return this.options.durability === 'sync' ? this.pending : undefined;
  }

  private metadata(step: number, record: StepRecord): Record<string, JsonValue> {
    const nodes = record.writes.map(([node]) => node).filter((node) => node !== START);
    return { step, source: this.source, writes: nodes, parents: { ...this.options.parents } };
  }

  private saveTask(loop: PregelLoop, task: Task, output: unknown): Promise<void> | undefined {
    if (this.options.durability === 'exit' || output instanceof TaskPaused) return undefined;
    const node = (loop.topology.nodes[task.node] as CompiledNode).name;
    return this.putTask(task.id, { kind: 'output', node, output: normalizeOutput(output) });
  }

  private async paused(
    loop: PregelLoop,
    outputs: readonly unknown[],
    interrupts: readonly PendingInterrupt[],
  ): Promise<void> {
    await this.flush();
    loop.tasks.forEach((task, i) => {
      const output = outputs[i];
      const node = (loop.topology.nodes[task.node] as CompiledNode).name;
      if (output instanceof TaskPaused) {
        const resumed = [...(loop.resumedFor(task.id) ?? [])];
        void this.putTask(task.id, { kind: 'paused', node, interrupts: output.interrupts, resumed });
      } else if (i in outputs && output !== undefined && !this.saved.has(task.id)) {
        void this.putTask(task.id, { kind: 'output', node, output: normalizeOutput(output) });
      }
    });
    void interrupts;
    await this.pending;
  }

  private putTask(taskId: string, write: TaskWrite): Promise<void> {
    const checkpointId = this.currentId;
    if (checkpointId === undefined) return Promise.resolve();
    this.saved.add(taskId);
    const payload = serialize(write);
    const { threadId, ns } = this.options;
    this.enqueue(() => this.options.checkpointer.putWrites({ threadId, ns, checkpointId, taskId, payload }));
    return this.pending;
  }

  private enqueue(work: () => Promise<void>, after?: () => void): void {
    this.pending = this.pending.then(work).then(after);
  }
}

function entriesOf(update: unknown): ReadonlyArray<readonly [string, unknown]> {
  if (update instanceof SubgraphWrites) return update.writes;
  if (typeof update === 'object' && update !== null) return Object.entries(update);
  return [['__output__', update]];
}

function normalizeOutput(output: unknown): unknown {
  return output instanceof SubgraphWrites ? { __subgraphWrites__: output.writes } : output;
}

/** Restores an output saved by {@link normalizeOutput}. */
export function restoreOutput(output: unknown): unknown {
  if (typeof output === 'object' && output !== null && '__subgraphWrites__' in output) {
    return new SubgraphWrites(
      (output as { __subgraphWrites__: Array<[string, unknown]> }).__subgraphWrites__,
    );
  }
  return output;
}

function serializeWrites(
  writes: ReadonlyArray<readonly [string, ReadonlyArray<readonly [string, unknown]>]>,
): string {
  try {
    return serialize(writes);
  } catch {
    for (const [, entries] of writes) for (const [key, value] of entries) serializeChannels({ [key]: value });
    throw new Error('a write could not be serialized');
  }
}

function encodeBody(
  loop: PregelLoop,
  writesText: string,
  valuesText: string | undefined,
  sinceBase: CheckpointBody['sinceBase'],
): string {
  const rest = serialize({
    versions: loop.versions,
    next: storeTasks(loop.topology, loop.tasks),
    routing: storeRouting(loop.topology, loop.routing),
    sinceBase,
  });
  const values = valuesText === undefined ? '' : `"values":${valuesText},`;
  return `{"v":1,${values}"writes":${writesText},${rest.slice(1)}`;
}
