import type { TaskWrite } from '../checkpoint/checkpoint-body.js';
import { WeftError } from '../errors/weft-error.js';
import type { RunContext } from '../pregel/run-context.js';
import { checkFence } from './effect-fence.js';
import type { EffectInfo, EffectOptions } from './effect-types.js';
import { idempotencyKeyOf } from './idempotency-key.js';

/** Prefix of the `ctx.once` keys (and `call` records) under which a task remembers its effects. */
export const EFFECT_KEY_PREFIX = '\u0000effect:';

/** The task an effect runs in: what `ctx.effect` of a node (or of a functional-API task call) gives. */
export interface EffectSite {
  readonly run: RunContext;
  /** The task's context: its id names the record, its `once` memo holds restored results. */
  readonly task: {
    readonly taskId: string;
    readonly node: string;
    readonly attempt: number;
    readonly signal: AbortSignal;
    once<T>(key: string, fn: () => T | Promise<T>): Promise<T>;
  };
  /** Scopes keys of a functional-API task call (`t3.`) within its entry task; `''` for a node. */
  readonly scope: string;
  /** The object positions are counted on (one per attempt and call scope). */
  readonly counter: object;
}

/** Positions handed out per attempt (and call scope), by effect name. */
const positions = new WeakMap<object, Map<string, number>>();
/** Effects recorded by a run, by task id: a retried attempt of the task gets them without calling again. */
const recorded = new WeakMap<RunContext, Map<string, Map<string, unknown>>>();

/**
 * Runs an effect once per task: answered from what the task recorded (restored from the checkpoint
 * after a crash or pause, carried into a fork, or kept from an earlier attempt), else `fn` runs with its
 * idempotency key and its result is recorded durably (awaited, and only while the run's fence holds)
 * before `ctx.effect` resolves.
 *
 * @throws WeftError `INVALID_ARGUMENT` (as a rejection) for an empty name or a `fn` that is no function;
 *   `EFFECT_FENCED` when the run lost its thread before the result was recorded.
 */
export function runEffect<T>(
  site: EffectSite,
  name: string,
  fn: (effect: EffectInfo) => T | Promise<T>,
  options: EffectOptions | undefined,
): Promise<Awaited<T>> {
  const { task } = site;
  if (typeof name !== 'string' || name === '')
    return invalid(`ctx.effect in node "${task.node}": the name must be a non-empty string`);
  if (typeof fn !== 'function')
    return invalid(`ctx.effect "${name}" in node "${task.node}": the second argument must be a function`);
  const own = options?.key;
  if (own !== undefined && (typeof own !== 'string' || own === ''))
    return invalid(`ctx.effect "${name}" in node "${task.node}": options.key must be a non-empty string`);
  const key = `${EFFECT_KEY_PREFIX}${site.scope}${name}#${own ?? nextPosition(site.counter, name)}`;
  const done = recordedBy(site.run, task.taskId);
  if (done.has(key)) return Promise.resolve(done.get(key) as Awaited<T>);
  return task.once(key, async (): Promise<Awaited<T>> => {
    const value = await fn(effectInfo(site, name, key));
    await record(site, { name, key, value });
    done.set(key, value);
    return value;
  });
}

function invalid(message: string): Promise<never> {
  return Promise.reject(new WeftError('INVALID_ARGUMENT', message));
}

function nextPosition(counter: object, name: string): number {
  let byName = positions.get(counter);
  if (!byName) positions.set(counter, (byName = new Map()));
  const position = byName.get(name) ?? 0;
  byName.set(name, position + 1);
  return position;
}

function recordedBy(run: RunContext, taskId: string): Map<string, unknown> {
  let byTask = recorded.get(run);
  if (!byTask) recorded.set(run, (byTask = new Map()));
  let done = byTask.get(taskId);
  if (!done) byTask.set(taskId, (done = new Map()));
  return done;
}

function effectInfo(site: EffectSite, name: string, key: string): EffectInfo {
  const { run, task } = site;
  const durable = run.durable;
  const idempotencyKey = idempotencyKeyOf({
    threadId: durable?.threadId ?? run.threadId ?? run.runId,
    ns: durable?.ns ?? '',
    checkpointId: durable?.currentId() ?? run.runId,
    taskId: task.taskId,
    key,
  });
  return { name, idempotencyKey, attempt: task.attempt, signal: task.signal };
}

/**
 * Records an effect's result as a `call` write of its task (what functional-API task calls store), so
 * a re-run of the task folds it into its `ctx.once` memo. Without a checkpointer only the fence is
 * checked: the result lives as long as the run.
 */
async function record(
  site: EffectSite,
  effect: { readonly name: string; readonly key: string; readonly value: unknown },
): Promise<void> {
  const { run, task } = site;
  const where = { node: task.node, effect: effect.name };
  const write: TaskWrite = {
    kind: 'call',
    node: task.node,
    owner: task.taskId,
    key: effect.key,
    output: effect.value,
  };
  const durable = run.durable;
  if (!durable?.recordEffect) return checkFence(run.fence, where);
  await durable.recordEffect(`${task.taskId}/${effect.key.slice(1)}`, write, {
    fence: run.fence,
    where,
  });
}
