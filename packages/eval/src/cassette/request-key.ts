import { createHash } from 'node:crypto';
import type { ChatModelCallOptions, Message } from '@weft/adk';

/** The parts of a model call that decide its answer, in a stable form (no ids, no signal, no caller). */
export interface CanonicalRequest {
  readonly model: string;
  readonly messages: readonly unknown[];
  readonly options: Readonly<Record<string, unknown>>;
}

/**
 * Reduces a model call to what decides its answer: the model's name, the messages without their
 * history ids and usage, and the call options without the abort signal and without `run` — who asked
 * (app, user, session and tenant ids the Runner passes) changes nothing the model is sent.
 *
 * @example
 * ```ts
 * const request = canonicalRequest('openai:gpt-4o', [userMessage('Hi')], { temperature: 0 });
 * ```
 */
export function canonicalRequest(
  model: string,
  messages: readonly Message[],
  options: ChatModelCallOptions | undefined,
): CanonicalRequest {
  const { signal: _signal, run: _run, ...rest } = options ?? {};
  return {
    model,
    messages: messages.map((message) => {
      const { id: _id, usage: _usage, ...kept } = message as Message & { usage?: unknown };
      return kept;
    }),
    options: rest,
  };
}

/** A request as an older cassette stored it, with what no longer belongs to it (the caller's ids) left out. */
export function withoutCaller(request: CanonicalRequest): CanonicalRequest {
  if (!('run' in request.options)) return request;
  const { run: _run, ...options } = request.options;
  return { ...request, options };
}

/** A sha256 of the request's canonical JSON (object keys sorted). */
export function requestKey(request: CanonicalRequest): string {
  return createHash('sha256').update(stableJson(request)).digest('hex').slice(0, 32);
}

/** JSON with object keys sorted, so equal requests give equal text. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}

/** How much of two texts differs: their lengths without the prefix and suffix they share. */
function textDistance(a: string, b: string): number {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end])
    end++;
  return a.length - start - end + (b.length - start - end);
}

/**
 * How far a recorded request is from an asked one (0: the same): over every message position and the
 * options, the characters of their JSON that are not shared as prefix or suffix. Small edits to one
 * message of a long conversation stay small; another conversation is far.
 *
 * @example
 * ```ts
 * const asked = canonicalRequest('m', [userMessage('Weather in Tokyo today?')], {});
 * requestDistance(canonicalRequest('m', [userMessage('Weather in Tokyo?')], {}), asked); // 6: ' today'
 * ```
 */
export function requestDistance(recorded: CanonicalRequest, asked: CanonicalRequest): number {
  let distance = 0;
  const count = Math.max(recorded.messages.length, asked.messages.length);
  for (let i = 0; i < count; i++) {
    const a = i < recorded.messages.length ? stableJson(recorded.messages[i]) : '';
    const b = i < asked.messages.length ? stableJson(asked.messages[i]) : '';
    if (a !== b) distance += textDistance(a, b);
  }
  return distance + textDistance(stableJson(recorded.options), stableJson(asked.options));
}

/**
 * Where two canonical requests first differ, as a path and both values (`messages[1].content:
 * recorded "…", asked "…"`), for a cassette miss.
 *
 * @example
 * ```ts
 * firstDifference(canonicalRequest('m', [userMessage('a')], {}), canonicalRequest('m', [userMessage('b')], {}));
 * // 'messages[0].content: recorded "a", asked "b"'
 * ```
 */
export function firstDifference(recorded: CanonicalRequest, asked: CanonicalRequest): string {
  const found = differenceAt(recorded, asked, '') ?? { path: '', recorded: '', asked: '' };
  return `${found.path}: recorded ${found.recorded}, asked ${found.asked}`;
}

interface Difference {
  readonly path: string;
  readonly recorded: string;
  readonly asked: string;
}

function differenceAt(a: unknown, b: unknown, path: string): Difference | undefined {
  if (stableJson(a) === stableJson(b)) return undefined;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const found = differenceAt(a[i], b[i], `${path}[${i}]`);
      if (found) return found;
    }
  }
  if (isRecord(a) && isRecord(b) && !Array.isArray(a) && !Array.isArray(b)) {
    for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      const found = differenceAt(a[key], b[key], path === '' ? key : `${path}.${key}`);
      if (found) return found;
    }
  }
  const [recorded, asked] = shown(a, b);
  return { path: path || '(request)', recorded, asked };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Both values as JSON, cut to the part around where they first differ when long. */
function shown(a: unknown, b: unknown): [string, string] {
  const left = a === undefined ? '(none)' : stableJson(a);
  const right = b === undefined ? '(none)' : stableJson(b);
  if (left.length <= 120 && right.length <= 120) return [left, right];
  let start = 0;
  while (start < left.length && start < right.length && left[start] === right[start]) start++;
  const from = Math.max(0, start - 30);
  const cut = (text: string) =>
    `${from > 0 ? '…' : ''}${text.slice(from, from + 90)}${text.length > from + 90 ? '…' : ''}`;
  return [cut(left), cut(right)];
}
