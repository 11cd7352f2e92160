import type { AssistantMessage, ToolCall, Usage } from './message.js';

/**
 * A piece of a tool call as it streams in. Deltas with the same `index` belong to one call: the
 * first delta usually carries `id` and `name`, and `arguments` arrives in fragments.
 *
 * @example
 * ```ts
 * const delta: ToolCallDelta = { index: 0, id: 'call_1', name: 'add', arguments: '{"a":' };
 * ```
 */
export interface ToolCallDelta {
  readonly index: number;
  readonly id?: string;
  readonly name?: string;
  readonly arguments?: string;
}

/**
 * One piece of a streamed assistant message. {@link concatMessageChunks} joins chunks into a message.
 *
 * @example
 * ```ts
 * for await (const chunk of model.stream(messages)) process.stdout.write(chunk.text ?? '');
 * ```
 */
export interface MessageChunk {
  /** The message id, if the model assigns one. */
  readonly id?: string;
  /** A fragment of the answer's text. */
  readonly text?: string;
  /** Fragments of tool calls, merged by their `index`. */
  readonly toolCallDeltas?: readonly ToolCallDelta[];
  /**
   * Token counts reported so far. Providers report running totals, so the last report of each field
   * wins (a chunk with only `outputTokens` keeps the earlier `inputTokens`).
   */
  readonly usage?: Partial<Usage>;
}

interface PendingToolCall {
  id: string | undefined;
  name: string | undefined;
  arguments: string;
}

function mergeUsage(current: Partial<Usage> | undefined, next: Partial<Usage>): Partial<Usage> {
  return {
    ...current,
    ...Object.fromEntries(Object.entries(next).filter(([, value]) => value !== undefined)),
  };
}

function completeUsage(usage: Partial<Usage>): Usage {
  const inputTokens = usage.inputTokens ?? 0;
  const outputTokens = usage.outputTokens ?? 0;
  const { cachedInputTokens, cacheWriteTokens, reasoningTokens } = usage;
  return {
    inputTokens,
    outputTokens,
    totalTokens: usage.totalTokens ?? inputTokens + outputTokens,
    ...(cachedInputTokens === undefined ? {} : { cachedInputTokens }),
    ...(cacheWriteTokens === undefined ? {} : { cacheWriteTokens }),
    ...(reasoningTokens === undefined ? {} : { reasoningTokens }),
  };
}

function addDelta(calls: Map<number, PendingToolCall>, delta: ToolCallDelta): void {
  const call = calls.get(delta.index);
  if (call === undefined) {
    calls.set(delta.index, { id: delta.id, name: delta.name, arguments: delta.arguments ?? '' });
    return;
  }
  if (call.id === undefined || call.id === '') call.id = delta.id;
  if (call.name === undefined || call.name === '') call.name = delta.name;
  call.arguments += delta.arguments ?? '';
}

/**
 * Joins streamed chunks into one assistant message: text is concatenated; tool-call deltas are merged
 * by index (id and name from the first delta of an index that has them, argument fragments
 * concatenated), calls ordered by index; usage keeps the last report of each field, and
 * `totalTokens` defaults to input + output.
 *
 * @example
 * ```ts
 * const message = concatMessageChunks([
 *   { text: 'Let me add. ' },
 *   { toolCallDeltas: [{ index: 0, id: 'call_1', name: 'add', arguments: '{"a":1,' }] },
 *   { toolCallDeltas: [{ index: 0, arguments: '"b":2}' }] },
 * ]);
 * // message.toolCalls → [{ id: 'call_1', name: 'add', arguments: '{"a":1,"b":2}' }]
 * ```
 */
export function concatMessageChunks(chunks: Iterable<MessageChunk>): AssistantMessage {
  let id: string | undefined;
  let text = '';
  let usage: Partial<Usage> | undefined;
  const calls = new Map<number, PendingToolCall>();
  for (const chunk of chunks) {
    if (id === undefined && chunk.id !== undefined) id = chunk.id;
    if (chunk.text !== undefined) text += chunk.text;
    for (const delta of chunk.toolCallDeltas ?? []) addDelta(calls, delta);
    if (chunk.usage !== undefined) usage = mergeUsage(usage, chunk.usage);
  }
  const toolCalls: ToolCall[] = [...calls.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, call]) => ({
      id: call.id || `call_${index}`,
      name: call.name ?? '',
      arguments: call.arguments,
    }));
  let message: AssistantMessage = { role: 'assistant', content: text };
  if (id !== undefined) message = { ...message, id };
  if (toolCalls.length > 0) message = { ...message, toolCalls };
  if (usage !== undefined) message = { ...message, usage: completeUsage(usage) };
  return message;
}
