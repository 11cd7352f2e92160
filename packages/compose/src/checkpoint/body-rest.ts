import type { LoopView } from '../pregel/loop-hooks.js';
import type { Task } from '../pregel/task.js';
import type { CompiledNode, Topology } from '../pregel/topology.js';
import type { CheckpointBody } from './checkpoint-body.js';
import { jsonQuote } from './json-quote.js';
import { storeRouting, storeTasks } from './loop-state.js';
import { serialize } from './serializer.js';

/** The parts of a checkpoint body after its values and writes. */
export type BodyRest = Pick<CheckpointBody, 'next' | 'routing' | 'sinceBase'>;

/**
 * Serializes a body's `next`, `routing` and `sinceBase` exactly as `serialize` does. When no next task
 * carries an input and no inbox holds values, every field is a string or a number, whose tagged JSON is
 * plain JSON: `JSON.stringify` then gives the same text without the tagged encoder's walk and copies
 * (most steps of a state graph, once per durable step).
 *
 * @throws {SerializationError} code `SERIALIZATION` when a task input or inbox value cannot be stored.
 * @example
 * ```ts
 * const routing = { barriers: [], inbox: [], deferred: [] };
 * serializeBodyRest({ next: [{ id: 'c1:a:0', node: 'a' }], routing, sinceBase: { bytes: 0, count: 0 } });
 * // '{"next":[{"id":"c1:a:0","node":"a"}],"routing":{"barriers":[],"inbox":[],"deferred":[]},"sinceBase":{"bytes":0,"count":0}}'
 * ```
 */
export function serializeBodyRest(rest: BodyRest): string {
  return isPlain(rest) ? JSON.stringify(rest) : serialize(rest);
}

function isPlain(rest: BodyRest): boolean {
  if (rest.routing.inbox.length > 0) return false;
  for (const task of rest.next) if ('input' in task) return false;
  return true;
}

/**
 * A checkpoint body's text from the texts of its parts: `values` (a full snapshot's channels, `undefined`
 * for a delta), `writes` and `rest` (the object text {@link serializeBodyRest} or {@link loopBodyRest}
 * gives). The one place the body's field order is written, for every path that stores a body.
 *
 * @example
 * ```ts
 * const rest = serializeBodyRest({ next: [], routing: { barriers: [], inbox: [], deferred: [] }, sinceBase: { bytes: 0, count: 0 } });
 * joinBody('{"n":1}', '[["a",[["n",1]]]]', rest);
 * // '{"v":1,"values":{"n":1},"writes":[["a",[["n",1]]]],"next":[],"routing":{…},"sinceBase":{…}}'
 * ```
 */
export function joinBody(values: string | undefined, writes: string, rest: string): string {
  const valuesField = values === undefined ? '' : `"values":${values},`;
  return `{"v":1,${valuesField}"writes":${writes},${rest.slice(1)}`;
}

/** What {@link loopBodyRest} reads from the loop after a step: its next tasks and routing. */
export type LoopRest = Pick<LoopView, 'topology' | 'tasks' | 'routing'>;

/** The stored text of an empty routing (no barrier, inbox or deferred node): most steps. */
const EMPTY_ROUTING = '"routing":{"barriers":[],"inbox":[],"deferred":[]}';

/**
 * The text {@link serializeBodyRest} gives for the loop's next tasks and routing in stored form
 * (`storeTasks`, `storeRouting`), built straight from the loop when it is plain: routing empty and no
 * next task with an input or a pipe. Then every field is a string or an integer, so the text is written
 * by hand — the stored tasks, the stored routing and a `JSON.stringify` walk over them are not made
 * (once per durable step). Otherwise it stores them and serializes as before.
 *
 * @throws {SerializationError} code `SERIALIZATION` when a task input or inbox value cannot be stored.
 * @example
 * ```ts
 * declare const loop: LoopRest; // the loop after a step whose next task is `b`
 * loopBodyRest(loop, { bytes: 0, count: 0 });
 * // '{"next":[{"id":"c1:b:0","node":"b"}],"routing":{"barriers":[],"inbox":[],"deferred":[]},"sinceBase":{"bytes":0,"count":0}}'
 * ```
 */
export function loopBodyRest(loop: LoopRest, sinceBase: CheckpointBody['sinceBase']): string {
  const { topology, tasks, routing } = loop;
  if (isPlainRest(loop)) return plainBodyRest(topology, tasks, sinceBase);
  return serializeBodyRest({
    next: storeTasks(topology, tasks),
    routing: storeRouting(topology, routing),
    sinceBase,
  });
}

/**
 * Whether {@link plainBodyRest} can write the loop's body tail: routing empty (no barrier, inbox or
 * deferred node) and no next task with an input or a pipe.
 *
 * @example
 * ```ts
 * declare const loop: LoopRest;
 * const rest = isPlainRest(loop) ? plainBodyRest(loop.topology, loop.tasks, { bytes: 0, count: 0 }) : undefined;
 * ```
 */
export function isPlainRest(loop: LoopRest): boolean {
  const { routing, tasks } = loop;
  if (routing.barriers.size !== 0 || routing.inbox.size !== 0 || routing.deferred.size !== 0) return false;
  for (let index = 0; index < tasks.length; index++) {
    const task = tasks[index] as Task;
    if (task.hasInput || task.pipedFrom !== undefined) return false;
  }
  return true;
}

/**
 * The body tail {@link loopBodyRest} gives for plain next tasks (see {@link isPlainRest}) and an empty
 * routing, written by hand: every field is a string or an integer. Reads each task's `id`, so a task
 * list kept for later (the memory store's deferred rows) gives the same text when it is written later.
 *
 * @example
 * ```ts
 * declare const loop: LoopRest; // plain, next task `b`
 * plainBodyRest(loop.topology, loop.tasks, { bytes: 0, count: 0 });
 * // '{"next":[{"id":"c1:b:0","node":"b"}],"routing":{"barriers":[],"inbox":[],"deferred":[]},"sinceBase":{"bytes":0,"count":0}}'
 * ```
 */
export function plainBodyRest(
  topology: Topology,
  tasks: readonly Task[],
  sinceBase: CheckpointBody['sinceBase'],
): string {
  let next = '';
  for (let index = 0; index < tasks.length; index++) {
    const task = tasks[index] as Task;
    const name = (topology.nodes[task.node] as CompiledNode).name;
    next += `${index === 0 ? '' : ','}{"id":${jsonQuote(task.id)},"node":${jsonQuote(name)}}`;
  }
  return `{"next":[${next}],${EMPTY_ROUTING},"sinceBase":{"bytes":${sinceBase.bytes},"count":${sinceBase.count}}}`;
}
