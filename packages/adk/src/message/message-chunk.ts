import type {
  AssistantMessage,
  ContentPart,
  FinishReason,
  ProviderMetadata,
  ReasoningPart,
  ToolCall,
  Usage,
} from './message.js';
import type { Building } from './message-constructors.js';

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
  /** Provider data of the call; the last report wins. */
  readonly providerMetadata?: ProviderMetadata;
}

/**
 * A piece of a reasoning part as it streams in. Deltas with the same `index` form one
 * {@link ReasoningPart}: `text` fragments are concatenated, the last `signature`, `redacted` and
 * `providerMetadata` reported win.
 *
 * @example
 * ```ts
 * const delta: ReasoningDelta = { index: 0, text: 'First, ' };
 * ```
 */
export interface ReasoningDelta {
  readonly index: number;
  readonly text?: string;
  readonly signature?: string;
  readonly redacted?: string;
  readonly providerMetadata?: ProviderMetadata;
}

/**
 * One piece of a streamed assistant message. {@link concatMessageChunks} joins chunks into a message.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Hello there!']);
 * for await (const chunk of model.stream([userMessage('Hi')])) process.stdout.write(chunk.text ?? '');
 * ```
 */
export interface MessageChunk {
  /** The message id, if the model assigns one. */
  readonly id?: string;
  /** A fragment of the answer's text. */
  readonly text?: string;
  /** Fragments of tool calls, merged by their `index`. */
  readonly toolCallDeltas?: readonly ToolCallDelta[];
  /** Fragments of reasoning parts, merged by their `index`; they come before the text in the message. */
  readonly reasoningDeltas?: readonly ReasoningDelta[];
  /** Why the model stopped (on the last chunks). */
  readonly finishReason?: FinishReason;
  /** Provider data of the whole response; the last report wins. */
  readonly providerMetadata?: ProviderMetadata;
  /** The id of the model writing the reply, as the provider says; the last report wins. */
  readonly modelId?: string;
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
  providerMetadata: ProviderMetadata | undefined;
}

interface PendingReasoning {
  text: string;
  signature: string | undefined;
  redacted: string | undefined;
  providerMetadata: ProviderMetadata | undefined;
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
    calls.set(delta.index, {
      id: delta.id,
      name: delta.name,
      arguments: delta.arguments ?? '',
      providerMetadata: delta.providerMetadata,
    });
    return;
  }
  if (call.id === undefined || call.id === '') call.id = delta.id;
  if (call.name === undefined || call.name === '') call.name = delta.name;
  call.arguments += delta.arguments ?? '';
  if (delta.providerMetadata !== undefined) call.providerMetadata = delta.providerMetadata;
}

function addReasoning(parts: Map<number, PendingReasoning>, delta: ReasoningDelta): void {
  const part = parts.get(delta.index) ?? {
    text: '',
    signature: undefined,
    redacted: undefined,
    providerMetadata: undefined,
  };
  part.text += delta.text ?? '';
  part.signature = delta.signature ?? part.signature;
  part.redacted = delta.redacted ?? part.redacted;
  part.providerMetadata = delta.providerMetadata ?? part.providerMetadata;
  parts.set(delta.index, part);
}

function toReasoningParts(parts: Map<number, PendingReasoning>): ReasoningPart[] {
  return [...parts.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, part]) => ({
      type: 'reasoning',
      text: part.text,
      ...(part.signature === undefined ? {} : { signature: part.signature }),
      ...(part.redacted === undefined ? {} : { redacted: part.redacted }),
      ...(part.providerMetadata === undefined ? {} : { providerMetadata: part.providerMetadata }),
    }));
}

function toToolCalls(calls: Map<number, PendingToolCall>): ToolCall[] {
  return [...calls.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, call]) => ({
      id: call.id || `call_${index}`,
      name: call.name ?? '',
      arguments: call.arguments,
      ...(call.providerMetadata === undefined ? {} : { providerMetadata: call.providerMetadata }),
    }));
}

function contentOf(reasoning: ReasoningPart[], text: string): string | ContentPart[] {
  if (reasoning.length === 0) return text;
  return text === '' ? reasoning : [...reasoning, { type: 'text', text }];
}

/**
 * Joins streamed chunks into one assistant message: text is concatenated; tool-call deltas are merged
 * by index (id and name from the first delta of an index that has them, argument fragments
 * concatenated), calls ordered by index; usage keeps the last report of each field, and
 * `totalTokens` defaults to input + output. Reasoning deltas become reasoning parts placed before the
 * text (the content is then a list of parts); the last `finishReason`, `providerMetadata` and `modelId`
 * win.
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
  let finishReason: FinishReason | undefined;
  let providerMetadata: ProviderMetadata | undefined;
  let modelId: string | undefined;
  const calls = new Map<number, PendingToolCall>();
  const reasoning = new Map<number, PendingReasoning>();
  for (const chunk of chunks) {
    if (id === undefined && chunk.id !== undefined) id = chunk.id;
    if (chunk.text !== undefined) text += chunk.text;
    for (const delta of chunk.toolCallDeltas ?? []) addDelta(calls, delta);
    for (const delta of chunk.reasoningDeltas ?? []) addReasoning(reasoning, delta);
    if (chunk.usage !== undefined) usage = mergeUsage(usage, chunk.usage);
    finishReason = chunk.finishReason ?? finishReason;
    providerMetadata = chunk.providerMetadata ?? providerMetadata;
    modelId = chunk.modelId ?? modelId;
  }
  const toolCalls = toToolCalls(calls);
  // Fields are added to the one object, not spread into a new one each (see `Building` in
  // message-constructors.ts): every assembled message then shares V8's hidden classes.
  const message: Building<AssistantMessage> = {
    role: 'assistant',
    content: contentOf(toReasoningParts(reasoning), text),
  };
  if (id !== undefined) message.id = id;
  if (toolCalls.length > 0) message.toolCalls = toolCalls;
  if (usage !== undefined) message.usage = completeUsage(usage);
  if (finishReason !== undefined) message.finishReason = finishReason;
  if (providerMetadata !== undefined) message.providerMetadata = providerMetadata;
  if (modelId !== undefined) message.modelId = modelId;
  return message;
}
