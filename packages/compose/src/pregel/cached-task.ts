import type { CachePolicy, NodeCache } from '../cache/node-cache.js';
import { payloadChecksum } from '../checkpoint/payload-checksum.js';
import { deserialize, serialize } from '../checkpoint/serializer.js';
import { normalizeOutput, restoreOutput } from '../checkpoint/write-encoding.js';
import { isPromiseLike } from '../runnable/runnable.js';
import type { RunContext } from './run-context.js';
import { executeTask, type TaskCall } from './runner.js';
import { TaskPaused } from './task.js';
import type { CompiledNode } from './topology.js';

/** The namespace of a node's cache entries: its graph and node names. */
export function cacheNamespace(graph: string, node: string): string {
  return `${graph}|${node}`;
}

/**
 * Runs a task of a node with a `cachePolicy` through the run's cache: a hit returns the stored write
 * without running the node (a `node-start` and a `node-end` with `cached: true` are emitted); a miss
 * runs it and stores its write (not a pause). Resolves with the task's output.
 *
 * @throws SerializationError when the input cannot be serialized for the default key.
 */
export async function runCachedTask(call: TaskCall, cache: NodeCache, graph: string): Promise<unknown> {
  const { node, run } = call;
  const policy = node.options.cachePolicy as CachePolicy;
  const key = policy.key
    ? (policy.key as (input: unknown) => string)(call.input)
    : payloadChecksum(serialize(call.input));
  const namespace = cacheNamespace(graph, node.name);
  const hit = await cache.get(namespace, key);
  if (hit !== undefined) {
    const output = restoreOutput(deserialize(hit));
    emitHit(run, call, node, output);
    return output;
  }
  const ran = executeTask(call);
  const output = isPromiseLike(ran) ? await ran : ran;
  if (!(output instanceof TaskPaused)) {
    const ttlMs = policy.ttl === undefined ? undefined : policy.ttl * 1000;
    await cache.set(namespace, key, serialize(normalizeOutput(output)), ttlMs);
  }
  return output;
}

function emitHit(run: RunContext, call: TaskCall, node: CompiledNode, output: unknown): void {
  if (!run.observer.event) return;
  const ts = Date.now();
  const path = [...run.path, node.name];
  const base = { runId: run.runId, ts, path, step: call.step, node: node.name, taskId: call.task.id };
  // `Object.assign`, not spreads: each hit's events keep one hidden class (ADR 025, fifth pass).
  run.observer.event(Object.assign({}, base, { type: 'node-start' as const, input: call.input, attempt: 1 }));
  run.observer.event(
    Object.assign({}, base, { type: 'node-end' as const, output, durationMs: 0, cached: true }),
  );
}
