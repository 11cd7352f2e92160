import type { RunEvent } from '@weft/compose';
import { deserialize, serialize } from '@weft/compose/store';

/** `k` of a stream entry that carries a batch of run events (`d`: a JSON array of tagged-JSON events). */
export const BATCH_KIND = 'b';
/** `k` of a stream entry that says a run settled (`d`: `{ runId, status }`). */
export const SETTLED_KIND = 's';

/** What a settled marker in a thread's stream says. */
export interface SettledMarker {
  readonly runId: string;
  readonly status: string;
}

/**
 * An entry read back from a thread's stream. An event's id is `<stream id>/<index in its batch>`; a
 * marker's id is its stream id. Both can be passed back as `from` to read what follows.
 */
export type StreamEntry =
  | { readonly id: string; readonly kind: 'event'; readonly event: RunEvent }
  | { readonly id: string; readonly kind: 'settled'; readonly marker: SettledMarker };

const PAYLOAD_FIELDS = ['input', 'output', 'values', 'chunk', 'data', 'value'] as const;

/**
 * Encodes an event as tagged JSON. A payload that cannot be serialized (a class instance a node
 * returned, say) is replaced by a short description, so one odd value never loses the whole event.
 */
export function encodeEvent(event: RunEvent): string {
  try {
    return serialize(event);
  } catch (error) {
    const copy: Record<string, unknown> = { ...event };
    const note = `[unserializable: ${error instanceof Error ? error.message : String(error)}]`;
    for (const field of PAYLOAD_FIELDS) if (field in copy) copy[field] = note;
    return serialize(copy);
  }
}

/** Joins encoded events into the body of one batch entry. */
export function encodeBatch(encoded: readonly string[]): string {
  return `[${encoded.join(',')}]`;
}

/** Decodes one raw stream entry (`[id, [field, value, ...]]`) into its events or marker. */
export function decodeEntry(id: string, fields: readonly string[]): StreamEntry[] {
  const kind = fields[1];
  const body = fields[3];
  if (body === undefined) return [];
  if (kind === SETTLED_KIND) return [{ id, kind: 'settled', marker: JSON.parse(body) as SettledMarker }];
  if (kind !== BATCH_KIND) return [];
  const events = deserialize(body);
  if (!Array.isArray(events)) return [];
  const entries: StreamEntry[] = [];
  events.forEach((event: unknown, index) => {
    if (typeof event === 'object' && event !== null && typeof (event as RunEvent).type === 'string') {
      entries.push({ id: `${id}/${index}`, kind: 'event', event: event as RunEvent });
    }
  });
  return entries;
}

/** Splits a reader position: `<stream id>/<index>` resumes inside a batch, anything else after an entry. */
export function parsePosition(from: string): {
  readonly streamId: string;
  readonly after: number | undefined;
} {
  const slash = from.indexOf('/');
  if (slash < 0) return { streamId: from, after: undefined };
  return { streamId: from.slice(0, slash), after: Number(from.slice(slash + 1)) };
}
