import type { NodeContext } from './node-context.js';
import type { RunContext } from './run-context.js';

/** Thrown by `ctx.interrupt()` to pause a task; caught by the runner, never seen by users. */
export class InterruptSignal {
  constructor(
    readonly value: unknown,
    /** Position of this `interrupt()` call within its node (0-based). */
    readonly index: number,
  ) {}
}

/** Resume values for one task's `interrupt()` calls, by call position. */
export type ResumeValues = ReadonlyMap<number, unknown>;

/** The `ctx` object a node receives. One per task attempt. */
export class TaskContext implements NodeContext {
  private interruptCount = 0;

  constructor(
    private readonly run: RunContext,
    private readonly ownSignal: AbortSignal | undefined,
    readonly step: number,
    readonly node: string,
    readonly taskId: string,
    readonly attempt: number,
    private readonly resume: ResumeValues | undefined,
  ) {}

  /** The attempt's signal: the run's (created on first use) or, with a timeout, one that also fires on it. */
  get signal(): AbortSignal {
    return this.ownSignal ?? this.run.control.signal;
  }

  get path(): readonly string[] {
    return [...this.run.path, this.node];
  }

  get runId(): string {
    return this.run.runId;
  }

  get threadId(): string | undefined {
    return this.run.threadId;
  }

  get config(): Readonly<Record<string, unknown>> {
    return this.run.config;
  }

  emit(data: unknown): void {
    const { observer } = this.run;
    observer.custom?.(this.node, data, this.run.path);
    observer.event?.({
      type: 'custom',
      runId: this.run.runId,
      ts: Date.now(),
      path: this.path,
      step: this.step,
      node: this.node,
      taskId: this.taskId,
      data,
    });
  }

  interrupt<TResume = unknown>(value: unknown): TResume {
    const index = this.interruptCount++;
    if (this.resume?.has(index)) return this.resume.get(index) as TResume;
    throw new InterruptSignal(value, index);
  }
}
