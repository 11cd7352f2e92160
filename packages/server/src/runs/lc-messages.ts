// Weft messages and message chunks in the shape the LangGraph SDK reads (LangChain's serialised
// messages: `type`, `content`, `id`, `tool_calls`/`tool_call_chunks`), matched structurally so the server
// depends on compose only.
import type { JsonValue } from '@weft/compose';
import { toJson } from './json-value.js';

const types: Readonly<Record<string, string>> = {
  user: 'human',
  assistant: 'ai',
  system: 'system',
  tool: 'tool',
};

type Loose = Readonly<Record<string, unknown>>;

const isObject = (value: unknown): value is Loose => typeof value === 'object' && value !== null;

/** A Weft message (`role`, `content`, `toolCalls`) as a LangChain message dict; others as they are. */
export function toLcMessage(message: unknown): JsonValue {
  if (!isObject(message) || typeof message.role !== 'string') return toJson(message);
  const type = types[message.role] ?? message.role;
  const toolCalls = Array.isArray(message.toolCalls)
    ? (message.toolCalls as Loose[]).map((call) => ({
        id: toJson(call.id),
        name: toJson(call.name),
        args: toJson(call.arguments ?? call.args ?? {}),
        type: 'tool_call',
      }))
    : [];
  return toJson({
    type,
    id: message.id ?? null,
    content: contentOf(message.content),
    ...(type === 'ai' ? { tool_calls: toolCalls, invalid_tool_calls: [] } : {}),
    ...(type === 'tool' ? { tool_call_id: message.toolCallId ?? null } : {}),
    ...(typeof message.author === 'string' ? { name: message.author } : {}),
    additional_kwargs: {},
    response_metadata: {},
  });
}

/**
 * A streamed chunk as an `AIMessageChunk` dict: a Weft `MessageChunk` (`text`, `toolCallDeltas`), a
 * string, or anything else (passed as its JSON).
 */
export function toLcChunk(chunk: unknown, fallbackId: string): JsonValue {
  if (typeof chunk === 'string')
    return { type: 'AIMessageChunk', id: fallbackId, content: chunk, tool_call_chunks: [] };
  if (!isObject(chunk) || !('text' in chunk || 'toolCallDeltas' in chunk || 'finishReason' in chunk))
    return toJson(chunk);
  const deltas = Array.isArray(chunk.toolCallDeltas) ? (chunk.toolCallDeltas as Loose[]) : [];
  return toJson({
    type: 'AIMessageChunk',
    id: typeof chunk.id === 'string' ? chunk.id : fallbackId,
    content: typeof chunk.text === 'string' ? chunk.text : '',
    tool_call_chunks: deltas.map((delta) => ({
      index: delta.index,
      id: delta.id ?? null,
      name: delta.name ?? null,
      args: delta.arguments ?? '',
      type: 'tool_call_chunk',
    })),
    additional_kwargs: {},
    response_metadata: chunk.finishReason === undefined ? {} : { finish_reason: chunk.finishReason },
  });
}

function contentOf(content: unknown): JsonValue {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return toJson(content);
  const parts = content as Loose[];
  if (parts.every((part) => part.type === 'text')) return parts.map((part) => String(part.text)).join('');
  return toJson(parts);
}

/** The values with Weft messages under `messages` turned into LangChain message dicts. */
export function withLcMessages(values: JsonValue): JsonValue {
  if (!isObject(values) || Array.isArray(values) || !Array.isArray(values.messages)) return values;
  return {
    ...(values as Record<string, JsonValue>),
    messages: (values.messages as unknown[]).map(toLcMessage),
  };
}
