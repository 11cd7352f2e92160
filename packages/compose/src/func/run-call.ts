import { NodeError } from '../errors/node-error.js';
import { toError } from '../errors/weft-error.js';
import { nodeEndEvent, nodeErrorEvent } from '../events/node-outcome-events.js';
import { retryDelay, shouldRetry, sleep } from '../pregel/retry.js';
import { isGraphPause } from '../pregel/task-context.js';
import type { ResolvedRetry } from '../pregel/topology.js';
import { CallContext } from './call-context.js';
import { type CallScope, type EntryRun, inScope } from './call-scope.js';

/** A task as {@link task} made it. */
export interface TaskDefinition {
  readonly name: string;
  readonly fn: (...args: readonly unknown[]) => unknown;
  readonly retry: ResolvedRetry | undefined;
}

/** Prefix of the `ctx.once` keys under which an entry task remembers its calls' results. */
const callKeyPrefix = '\u0000task:';

/**
 * One call of a task from `scope`: numbered in call order, answered from the entry task's memo when it
 * finished before (restored from the checkpoint, or kept from an earlier attempt), else run.
 */
export function runCall(scope: CallScope, task: TaskDefinition, args: readonly unknown[]): Promise<unknown> {
  const { entry } = scope;
  const n = scope.calls++;
  const key = scope.key === undefined ? `${n}` : `${scope.key}.${n}`;
  const memoKey = `${callKeyPrefix}${key}`;
  if (entry.results.has(memoKey)) return Promise.resolve(entry.results.get(memoKey));
  const running = entry.ctx.once(memoKey, () => attempt(entry, task, { key, memoKey, args }, 1));
  entry.running.add(running);
  running.then(
    () => entry.running.delete(running),
    (error: unknown) => {
      entry.running.delete(running);
      if (isGraphPause(error)) entry.pauses.push(error);
    },
  );
  return running;
}

interface Call {
  readonly key: string;
  readonly memoKey: string;
  readonly args: readonly unknown[];
}

/** Runs one attempt of a call in its own scope; stores the result, or retries, or fails naming the task. */
async function attempt(
  entry: EntryRun,
  task: TaskDefinition,
  call: Call,
  attemptNo: number,
): Promise<unknown> {
  const { run } = entry;
  const context = new CallContext(entry, task.name, call.key, attemptNo);
  const scope: CallScope = { entry, key: call.key, context, calls: 0, interrupts: 0 };
  context.scope = scope;
  const where = { path: context.path, step: context.step, node: task.name, taskId: context.taskId };
  const started = run.observer.event ? Date.now() : 0;
  run.observer.event?.({
    type: 'node-start',
    runId: run.runId,
    ts: started,
    ...where,
    input: call.args,
    attempt: attemptNo,
  });
  let output: unknown;
  try {
    output = await inScope(scope, () => task.fn(...call.args));
  } catch (thrown) {
    if (isGraphPause(thrown)) throw thrown;
    if (run.control.aborted) throw run.control.reason;
    const error = toError(thrown);
    const policy = task.retry;
    if (policy && attemptNo < policy.maxAttempts && shouldRetry(policy, error, run.control.signal)) {
      const delayMs = retryDelay(policy, attemptNo);
      run.observer.event?.({
        type: 'node-retry',
        runId: run.runId,
        ts: Date.now(),
        ...where,
        error,
        attempt: attemptNo,
        delayMs,
      });
      await sleep(delayMs, run.control.signal);
      return attempt(entry, task, call, attemptNo + 1);
    }
    const failure =
      error instanceof NodeError
        ? error
        : new NodeError({ path: context.path, step: context.step, attempt: attemptNo, cause: error });
    if (run.observer.event) run.observer.event(nodeErrorEvent(context, failure, started));
    throw failure;
  }
  await finished(entry, task, call, output);
  if (run.observer.event) run.observer.event(nodeEndEvent(context, output, started));
  return output;
}

/**
 * A call finished: its result is stored against the entry task's checkpoint (awaited with `sync`
 * durability, so a crash after the call returns never loses it), kept for a retry of the entry task, and
 * shown to `updates` subscribers as the task's write.
 */
async function finished(entry: EntryRun, task: TaskDefinition, call: Call, output: unknown): Promise<void> {
  const { run, ctx } = entry;
  const durable = run.durable;
  const saved = durable?.putWrite?.(`${ctx.taskId}/${call.key}`, {
    kind: 'call',
    node: entry.name,
    owner: ctx.taskId,
    key: call.memoKey,
    output,
  });
  if (saved && durable?.durability === 'sync') await saved;
  entry.results.set(call.memoKey, output);
  const shown = run.observer.updates?.(task.name, output, run.path);
  if (shown) await shown;
}
