import type { PipeWriter } from '../stream/stream-pipe.js';
import type { RunContext } from './run-context.js';
import type { TaskCall } from './runner.js';
import type { PipeSource, StepCall } from './step-call.js';
import type { Task } from './task.js';
import type { ResumeValues } from './task-context.js';
import type { CompiledNode } from './topology.js';

/**
 * The task call of a task that streams nothing in or out (most tasks, and every task of a map step):
 * four fields, the rest read from its step when asked. The runner's context keeps it for the attempt,
 * so an object literal of all twelve fields was 120 bytes per task that a scavenge might copy.
 */
export class PlainTaskCall implements TaskCall {
  readonly #step: StepCall;
  readonly #index: number;

  constructor(
    step: StepCall,
    index: number,
    readonly node: CompiledNode,
    readonly input: unknown,
  ) {
    this.#step = step;
    this.#index = index;
  }

  get run(): RunContext {
    return this.#step.run;
  }

  get step(): number {
    return this.#step.step;
  }

  get task(): Task {
    return this.#step.tasks[this.#index] as Task;
  }

  get resume(): ResumeValues | undefined {
    return this.#step.resume?.(this.task);
  }

  get memo(): ReadonlyMap<string, unknown> | undefined {
    return this.#step.memo?.(this.task);
  }

  get startedAt(): number | undefined {
    return this.#index === 0 ? this.#step.startedAt : undefined;
  }
}

/** What a streaming task's call is made from, besides its step. */
interface StreamingTask {
  readonly i: number;
  readonly node: CompiledNode;
  readonly source: PipeSource | undefined;
  readonly pipe: PipeWriter | undefined;
}

/** The task call of a task that reads a stream, feeds a pipe or has stream branches (ADR 022). */
export function streamingCall(call: StepCall, streaming: StreamingTask): TaskCall {
  const { i, node, source, pipe } = streaming;
  const task = call.tasks[i] as Task;
  return {
    run: call.run,
    node,
    input: source ? source.pipe.reader : task.hasInput ? task.input : call.values,
    step: call.step,
    task,
    resume: call.resume?.(task),
    memo: call.memo?.(task),
    startedAt: i === 0 ? call.startedAt : undefined,
    pipe,
    source: source?.pipe,
    streamFrom: source?.from,
    decide: node.streamBranches ? decider(call, i) : undefined,
  };
}

/** Where task `i`'s stream branches leave their decisions (ADR 022). */
function decider(
  call: StepCall,
  i: number,
): ((decisions: ReadonlyArray<Promise<unknown> | undefined>) => void) | undefined {
  const { decisions } = call;
  if (!decisions) return undefined;
  return (made) => {
    decisions[i] = made;
  };
}
