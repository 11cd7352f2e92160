import { NodeError } from '../errors/node-error.js';
import { toError, WeftError } from '../errors/weft-error.js';
import { nodeEndEvent, nodeErrorEvent } from '../events/node-outcome-events.js';
import type { RunEvent } from '../events/run-event.js';
import { concatChunks } from '../runnable/concat.js';
import { isAsyncIterable, isPromiseLike } from '../runnable/runnable.js';
import { asStateMutation, freezeState } from '../state/freeze-state.js';
import { AsyncQueue } from '../stream/async-queue.js';
import type { PipeWriter, StreamPipe } from '../stream/stream-pipe.js';
import { isCommand } from '../vocabulary/command.js';
import { listOutput } from './list-output.js';
import { ParentCommand, parentOutput, toParent } from './parent-command.js';
import { retryDelay, shouldRetry, sleep } from './retry.js';
import type { RunContext } from './run-context.js';
import { SubgraphPaused } from './subgraph-paused.js';
import { type PendingInterrupt, TaskPaused } from './task.js';
import {
  InterruptSignal,
  isInterruptWithoutCheckpointer,
  type ResumeValues,
  TaskContext,
} from './task-context.js';
import type { CompiledNode, NodeHandlers } from './topology.js';

/** One task to execute: which node, with what input, where. */
export interface TaskCall {
  readonly run: RunContext;
  readonly node: CompiledNode;
  readonly input: unknown;
  readonly step: number;
  /** The task: its id (`step:node:position`) is built when first read (events, checkpoints, interrupts). */
  readonly task: { readonly id: string };
  readonly resume: ResumeValues | undefined;
  /** `ctx.once` results the task remembered when it paused (restored on resume). */
  readonly memo?: ReadonlyMap<string, unknown> | undefined;
  /**
   * When the task's first attempt starts, if the caller just read the clock (the step's start, for the
   * step's first task): saves a `Date.now()` per step when events are watched (~50 ns on a VM clock).
   */
  readonly startedAt?: number | undefined;
  /** Where this task's chunks stream into as they come: its readers' pipes (ADR 022). */
  readonly pipe?: PipeWriter | undefined;
  /** The pipe this task reads its input from (`input` is its reader): it streams in as it comes. */
  readonly source?: StreamPipe | undefined;
  /** The task feeding `source` while it runs (absent when it finished before a pause). */
  readonly streamFrom?: string | undefined;
  /**
   * Set when the node has stream branches: receives, per branch, the decision its condition makes while
   * reading the node's chunks as they come (ADR 022).
   */
  readonly decide?: ((decisions: ReadonlyArray<Promise<unknown> | undefined>) => void) | undefined;
}

/**
 * Runs one task with its retry policy and timeout. Returns the output synchronously when the node is
 * synchronous (no promise is allocated on that path), a promise otherwise, or a {@link TaskPaused} when
 * the node interrupted. Failures reject/throw a {@link NodeError}.
 */
export function executeTask(call: TaskCall): unknown {
  return attempt(call, 1);
}

function attempt(call: TaskCall, attemptNo: number): unknown {
  const { run, node } = call;
  const timeout = node.options.timeoutMs;
  const controller = timeout === undefined ? undefined : new AbortController();
  const own = controller ? AbortSignal.any([run.control.signal, controller.signal]) : undefined;
  const ctx = new TaskContext(call, attemptNo, own);
  const started = run.observer.event
    ? attemptNo === 1 && call.startedAt !== undefined
      ? call.startedAt
      : Date.now()
    : 0;
  if (run.observer.event) run.observer.event(nodeStartEvent(call, ctx, started));
  let out: unknown;
  try {
    const parsed = node.inputSchema ? parseWith(node, 'input', node.inputSchema, call.input) : call.input;
    // Development: the state a node sees is frozen, so an in-place change throws (see freeze-state.ts).
    const input = run.freezeState && !call.source ? freezeState(parsed) : parsed;
    out = node.handlers ? invokeHandled(call, input, ctx, node.handlers) : invokeNode(call, input, ctx);
  } catch (error) {
    const outcome = onFailure(call, error, started, ctx);
    return call.pipe ? pipeFailure(call, outcome) : outcome;
  }
  // A synchronous node's output is finished here, without the two closures an asynchronous one needs.
  if (!isPromiseLike(out) && !isAsyncIterable(out)) {
    const value = onSuccess(call, out, started, ctx);
    return call.pipe ? pipeOutput(call, value) : value;
  }
  return settleAsync({ call, ctx, started, controller }, out);
}

/** An asynchronous attempt: its context, when it started, and its timeout's controller. */
interface AsyncAttempt {
  readonly call: TaskCall;
  readonly ctx: TaskContext;
  readonly started: number;
  readonly controller: AbortController | undefined;
}

/**
 * Finishes an attempt whose node returned a promise or a stream. Apart from `attempt` so that the
 * closures it needs are not made — nor their context allocated — for synchronous nodes (a map step
 * runs 100,000 of them).
 */
function settleAsync(pending: AsyncAttempt, out: unknown): Promise<unknown> {
  const { call, ctx, started, controller } = pending;
  const { node } = call;
  const timeout = node.options.timeoutMs as number;
  const fail = call.pipe
    ? (error: unknown): unknown => pipeFailure(call, onFailure(call, error, started, ctx))
    : (error: unknown): unknown => onFailure(call, error, started, ctx);
  const finish = call.pipe
    ? (output: unknown): unknown => pipeOutput(call, onSuccess(call, output, started, ctx))
    : (output: unknown): unknown => onSuccess(call, output, started, ctx);
  if (isPromiseLike(out)) {
    const waited = controller ? withTimeout(out, timeout, controller, node.name) : out;
    return Promise.resolve(waited)
      .then((value) => (isAsyncIterable(value) ? consume(call, value, ctx) : value))
      .then(finish, fail);
  }
  const consumed = consume(call, out as AsyncIterable<unknown>, ctx);
  return (controller ? withTimeout(consumed, timeout, controller, node.name) : consumed).then(finish, fail);
}

/** The `node-start` event of an attempt (one literal per shape: no spread of an optional field). */
function nodeStartEvent(call: TaskCall, ctx: TaskContext, started: number): RunEvent {
  const { run, node } = call;
  const input = call.source ? undefined : call.input;
  return call.streamFrom === undefined
    ? {
        type: 'node-start',
        runId: run.runId,
        ts: started,
        path: ctx.path,
        step: call.step,
        node: node.name,
        taskId: call.task.id,
        input,
        attempt: ctx.attempt,
      }
    : {
        type: 'node-start',
        runId: run.runId,
        ts: started,
        path: ctx.path,
        step: call.step,
        node: node.name,
        taskId: call.task.id,
        input,
        attempt: ctx.attempt,
        streamFrom: call.streamFrom,
      };
}

function invokeNode(call: TaskCall, input: unknown, ctx: TaskContext): unknown {
  const { impl } = call.node;
  switch (impl.kind) {
    case 'function':
      return (impl.fn as (input: unknown, ctx: TaskContext) => unknown)(input, ctx);
    case 'runnable': {
      const options = { signal: ctx.signal, config: call.run.config };
      if (call.source) return impl.runnable.transform(input as never, options);
      const streaming =
        call.run.observer.chunk !== undefined ||
        call.run.observer.event !== undefined ||
        call.pipe !== undefined;
      return streaming
        ? impl.runnable.stream(input as never, options)
        : impl.runnable.invoke(input as never, options);
    }
    case 'subgraph':
      return impl.graph.runNested(input, { run: call.run, ctx, signal: ctx.abortSource });
  }
}

/**
 * Runs a node between its state handlers: `beforeStream` on an input stream (or `before` on a whole
 * input), then `afterStream` on its chunks, or `after` on its (joined) output. Only nodes with handlers
 * come here, so others pay nothing for them.
 */
async function invokeHandled(
  call: TaskCall,
  input: unknown,
  ctx: TaskContext,
  handlers: NodeHandlers,
): Promise<unknown> {
  const state = call.run.localState;
  let out = await invokeNode(call, await handledInput(call, input, handlers, state), ctx);
  if (isAsyncIterable(out)) {
    if (handlers.afterStream) return consume(call, handlers.afterStream(out, state), ctx);
    out = await consume(call, out, ctx);
  }
  if (!handlers.after || isCommand(out)) return out;
  return handlers.after(out, state);
}

/**
 * A node's input after its pre-handler: a stream it reads goes through `beforeStream` (a piped node
 * without one never reads a stream, see `pipes.ts`); a whole value through `before`, or else through
 * `beforeStream` as one chunk, joined.
 */
async function handledInput(
  call: TaskCall,
  input: unknown,
  handlers: NodeHandlers,
  state: unknown,
): Promise<unknown> {
  const { before, beforeStream } = handlers;
  if (call.source) return beforeStream ? beforeStream(input as AsyncIterable<unknown>, state) : input;
  if (before) return before(input, state);
  if (!beforeStream) return input;
  const chunks: unknown[] = [];
  for await (const chunk of beforeStream(oneChunk(input), state)) chunks.push(chunk);
  return concatChunks(chunks);
}

async function* oneChunk(value: unknown): AsyncIterable<unknown> {
  yield value;
}

async function consume(call: TaskCall, source: AsyncIterable<unknown>, ctx: TaskContext): Promise<unknown> {
  const { observer, runId } = call.run;
  const control = call.run.control;
  const chunks: unknown[] = [];
  const copies = call.decide ? startConditions(call) : undefined;
  try {
    for await (const chunk of source) {
      if (control.aborted) throw control.reason;
      chunks.push(chunk);
      if (copies) for (const copy of copies) copy?.push(chunk);
      if (observer.event) {
        observer.event({
          type: 'chunk',
          runId,
          ts: Date.now(),
          path: ctx.path,
          step: call.step,
          node: call.node.name,
          taskId: call.task.id,
          chunk,
        });
      }
      const wait = observer.chunk?.(call.node.name, chunk, call.run.path);
      if (wait) await wait;
      const space = call.pipe?.push(chunk);
      if (space) await space;
    }
  } catch (error) {
    if (copies) for (const copy of copies) copy?.fail(error);
    throw error;
  }
  if (copies) for (const copy of copies) copy?.close();
  return call.node.concat(chunks);
}

/** Starts each stream branch's condition on a copy of the chunks to come (buffered, never blocking). */
function startConditions(call: TaskCall): Array<AsyncQueue<unknown> | undefined> {
  const copies: Array<AsyncQueue<unknown> | undefined> = [];
  const decisions: Array<Promise<unknown> | undefined> = [];
  for (const branch of call.node.branches) {
    const condition = branch.condition as ((stream: AsyncIterable<unknown>) => unknown) | undefined;
    if (!condition) {
      copies.push(undefined);
      decisions.push(undefined);
      continue;
    }
    const copy = new AsyncQueue<unknown>(Number.POSITIVE_INFINITY);
    const decision = Promise.resolve().then(() => condition(copy));
    // Read when the step is routed; until then a rejection is not unhandled.
    decision.catch(() => undefined);
    copies.push(copy);
    decisions.push(decision);
  }
  call.decide?.(decisions);
  return copies;
}

/** A producer finished: its pipe ends (with its output as the one chunk when it streamed none). */
function pipeOutput(call: TaskCall, output: unknown): unknown {
  call.pipe?.finish(output);
  return output;
}

/** A producer paused: so does the node reading its stream. (A failure aborts the run, which ends the pipe.) */
function pipeFailure(call: TaskCall, outcome: unknown): unknown {
  if (outcome instanceof TaskPaused) call.pipe?.pause();
  return outcome;
}

function onSuccess(call: TaskCall, output: unknown, started: number, ctx: TaskContext): unknown {
  const { node, run } = call;
  // A Command for the parent graph stops this (sub)graph: the parent's task ends with it (see onFailure).
  if (isCommand(output) && output.graph !== undefined) throw toParent(output, node.name, run.path);
  const schema = node.outputSchema;
  const value =
    run.kind === 'state' && Array.isArray(output)
      ? listOutput(node.name, output, schema && ((update) => parseWith(node, 'output', schema, update)))
      : schema && output !== undefined
        ? parseWith(node, 'output', schema, output)
        : output;
  if (run.observer.event) run.observer.event(nodeEndEvent(ctx, value, started));
  return value;
}

/** A failed attempt's outcome: a pause, a retry (the attempt number is the context's), or a NodeError. */
function onFailure(call: TaskCall, thrown: unknown, started: number, ctx: TaskContext): unknown {
  const { node, run } = call;
  const attemptNo = ctx.attempt;
  // Its producer paused: this task pauses without an interrupt of its own and runs again on resume.
  if (call.source?.paused) return new TaskPaused([], ctx.memoEntries());
  if (thrown instanceof InterruptSignal) {
    const interrupt: PendingInterrupt = {
      id: `${call.task.id}:${thrown.index}`,
      value: thrown.value,
      path: [...run.path, node.name],
      taskId: call.task.id,
    };
    emitInterrupts(call, [interrupt]);
    return new TaskPaused([interrupt], ctx.memoEntries());
  }
  if (thrown instanceof SubgraphPaused) return new TaskPaused(thrown.interrupts, ctx.memoEntries());
  if (thrown instanceof ParentCommand) {
    // From a subgraph this task ran: the command is this task's output. From deeper: not ours to take.
    if (thrown.path.length !== run.path.length + 1) throw thrown;
    return onSuccess(call, parentOutput(thrown, run.nodes), started, ctx);
  }
  if (run.control.aborted) throw run.control.reason;
  if (isInterruptWithoutCheckpointer(thrown)) throw thrown;
  const mutation = run.freezeState ? asStateMutation(thrown, node.name, run.state?.keySet) : undefined;
  const error = mutation ?? toError(thrown);
  const path = [...run.path, node.name];
  const policy = node.retry;
  if (
    policy &&
    mutation === undefined &&
    attemptNo < policy.maxAttempts &&
    shouldRetry(policy, error, run.control.signal)
  ) {
    const delayMs = retryDelay(policy, attemptNo);
    run.observer.event?.({
      type: 'node-retry',
      runId: run.runId,
      ts: Date.now(),
      path,
      step: call.step,
      node: node.name,
      taskId: call.task.id,
      error,
      attempt: attemptNo,
      delayMs,
    });
    return sleep(delayMs, run.control.signal).then(() => attempt(call, attemptNo + 1));
  }
  const failure =
    error instanceof NodeError || (WeftError.isInstance(error) && error.code === 'GRAPH_INVALID')
      ? error
      : new NodeError({
          path,
          step: call.step,
          attempt: attemptNo,
          cause: error,
          timeout: WeftError.isInstance(error) && error.code === 'NODE_TIMEOUT',
        });
  if (run.observer.event) run.observer.event(nodeErrorEvent(ctx, failure, started));
  throw failure;
}

function emitInterrupts(call: TaskCall, interrupts: readonly PendingInterrupt[]): void {
  const { event } = call.run.observer;
  if (!event) return;
  for (const interrupt of interrupts) {
    event({
      type: 'interrupt',
      runId: call.run.runId,
      ts: Date.now(),
      path: interrupt.path,
      step: call.step,
      node: call.node.name,
      interruptId: interrupt.id,
      value: interrupt.value,
    });
  }
}

function withTimeout<T>(
  pending: PromiseLike<T>,
  ms: number,
  controller: AbortController,
  node: string,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      const error = new WeftError('NODE_TIMEOUT', `node "${node}" did not finish within ${ms} ms`);
      controller.abort(error);
      reject(error);
    }, ms);
    pending.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

function parseWith(
  node: CompiledNode,
  what: 'input' | 'output',
  schema: NonNullable<CompiledNode['inputSchema']>,
  value: unknown,
): unknown {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
  throw new WeftError(
    what === 'input' ? 'INVALID_INPUT' : 'INVALID_UPDATE',
    `node "${node.name}" ${what} failed its schema: ${issues}`,
  );
}
