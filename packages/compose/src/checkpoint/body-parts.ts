// What the checkpoint session stores besides a step's own text: a failed task's error info and the body
// parts `exit` durability holds until it writes them.
import { NodeError } from '../errors/node-error.js';
import { redactSecrets } from '../errors/redact-secrets.js';
import { WeftError } from '../errors/weft-error.js';
import type { LoopSnapshot, LoopView } from '../pregel/loop-hooks.js';
import type { CheckpointBody, TaskErrorInfo } from './checkpoint-body.js';
import { storeRouting, storeTasks } from './loop-state.js';

/**
 * The failed node's own error (a `NodeError`'s cause), as stored: name, message and a code.
 *
 * @example
 * ```ts
 * errorInfo(new TypeError('bad input')); // { name: 'TypeError', message: 'bad input', code: 'NODE_FAILED' }
 * ```
 */
export function errorInfo(error: unknown): TaskErrorInfo {
  const failure = error instanceof WeftError ? error : undefined;
  const cause = failure && error instanceof NodeError ? failure.cause : error;
  const own = cause instanceof Error ? cause : new Error(String(cause));
  const code = (own as { code?: unknown }).code;
  return {
    name: own.name,
    // A node's own error may quote a credential (a tool's failed request): stored redacted.
    message: redactSecrets(own.message),
    code: typeof code === 'string' ? code : (failure?.code ?? 'NODE_FAILED'),
  };
}

/** What a checkpoint body holds besides its writes and values, taken from the loop after a step. */
export interface BodyParts {
  readonly values: LoopSnapshot['values'];
  readonly next: CheckpointBody['next'];
  readonly routing: CheckpointBody['routing'];
}

/**
 * The loop's body parts, from its snapshot: what `exit` durability holds until the run ends.
 *
 * @example
 * ```ts
 * declare const loop: Parameters<typeof bodyParts>[0];
 * const { values, next, routing } = bodyParts(loop);
 * ```
 */
export function bodyParts(loop: LoopView): BodyParts {
  const { values, tasks, routing } = loop.snapshot();
  const empty = routing.barriers.size === 0 && routing.inbox.size === 0 && routing.deferred.size === 0;
  return {
    values,
    next: storeTasks(loop.topology, tasks),
    routing: empty ? emptyRouting : storeRouting(loop.topology, routing),
  };
}

/** The stored form of routing with nothing pending (most steps): one shared object, only ever read. */
const emptyRouting: CheckpointBody['routing'] = Object.freeze({ barriers: [], inbox: [], deferred: [] });
