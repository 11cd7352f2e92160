import { createHash } from 'node:crypto';
import type { ChatModelCallOptions, Message } from '@weft/adk';

/** The parts of a model call that decide its answer, in a stable form (no ids, no signal). */
export interface CanonicalRequest {
  readonly model: string;
  readonly messages: readonly unknown[];
  readonly options: Readonly<Record<string, unknown>>;
}

/**
 * Reduces a model call to what decides its answer: the model's name, the messages without their
 * history ids and usage, and the call options without the abort signal.
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
  const { signal: _signal, ...rest } = options ?? {};
  return {
    model,
    messages: messages.map((message) => {
      const { id: _id, usage: _usage, ...kept } = message as Message & { usage?: unknown };
      return kept;
    }),
    options: rest,
  };
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

/** Says where two canonical requests first differ (for a cache-miss report). */
export function firstDifference(recorded: CanonicalRequest, asked: CanonicalRequest): string {
  if (recorded.model !== asked.model) return `model: recorded ${recorded.model}, asked ${asked.model}`;
  const count = Math.max(recorded.messages.length, asked.messages.length);
  for (let i = 0; i < count; i++) {
    const a = stableJson(recorded.messages[i]);
    const b = stableJson(asked.messages[i]);
    if (a !== b) return `message ${i + 1}: recorded ${clip(a)}, asked ${clip(b)}`;
  }
  return `options: recorded ${clip(stableJson(recorded.options))}, asked ${clip(stableJson(asked.options))}`;
}

function clip(text: string | undefined): string {
  if (text === undefined) return '(none)';
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}
