import type { CheckpointBody } from './checkpoint-body.js';
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
