import { mediaPart } from '../../message/media-part.js';
import type {
  AssistantMessage,
  ContentPart,
  FinishReason,
  ProviderMetadata,
  ToolCall,
  Usage,
} from '../../message/message.js';
import type { AiSdkContent, AiSdkFinishReason, AiSdkUsage } from './ai-sdk-types.js';

function defined<T>(value: T | undefined | null): value is T {
  return value !== undefined && value !== null;
}

/**
 * Converts AI SDK token counts (v3 nested or v2 flat) into ours; counts the provider did not report
 * are left out.
 *
 * @example
 * ```ts
 * fromAiSdkUsage({ inputTokens: { total: 10, noCache: 2, cacheRead: 8, cacheWrite: undefined }, outputTokens: { total: 4, text: 1, reasoning: 3 } });
 * // { inputTokens: 10, cachedInputTokens: 8, outputTokens: 4, reasoningTokens: 3, totalTokens: 14 }
 * ```
 */
export function fromAiSdkUsage(usage: AiSdkUsage): Usage {
  const nested = typeof usage.inputTokens === 'object' && usage.inputTokens !== null;
  const counts = nested
    ? (() => {
        const v3 = usage as Extract<AiSdkUsage, { inputTokens: { total: unknown } }>;
        return {
          input: v3.inputTokens.total,
          output: v3.outputTokens.total,
          cached: v3.inputTokens.cacheRead,
          written: v3.inputTokens.cacheWrite,
          reasoning: v3.outputTokens.reasoning,
          total: undefined,
        };
      })()
    : (() => {
        const v2 = usage as Extract<AiSdkUsage, { totalTokens: unknown }>;
        return {
          input: v2.inputTokens,
          output: v2.outputTokens,
          cached: v2.cachedInputTokens,
          written: undefined,
          reasoning: v2.reasoningTokens,
          total: v2.totalTokens,
        };
      })();
  const inputTokens = counts.input ?? 0;
  const outputTokens = counts.output ?? 0;
  return {
    inputTokens,
    outputTokens,
    totalTokens: counts.total ?? inputTokens + outputTokens,
    ...(defined(counts.cached) ? { cachedInputTokens: counts.cached } : {}),
    ...(defined(counts.written) ? { cacheWriteTokens: counts.written } : {}),
    ...(defined(counts.reasoning) ? { reasoningTokens: counts.reasoning } : {}),
  };
}

/**
 * Maps an AI SDK finish reason (v3 `{ unified }` or v2 string) to ours (`error` and `unknown` become
 * `other`).
 *
 * @example
 * ```ts
 * fromAiSdkFinishReason({ unified: 'tool-calls', raw: 'tool_use' }); // 'tool-calls'
 * ```
 */
export function fromAiSdkFinishReason(reason: AiSdkFinishReason): FinishReason {
  const unified = typeof reason === 'string' ? reason : reason.unified;
  switch (unified) {
    case 'stop':
    case 'length':
    case 'content-filter':
    case 'tool-calls':
      return unified;
    default:
      return 'other';
  }
}

/** The provider metadata of an AI SDK item, if it has any (the AI SDK's records are JSON objects). */
export function metadataOf(item: { providerMetadata?: unknown }): { providerMetadata?: ProviderMetadata } {
  return item.providerMetadata === undefined
    ? {}
    : { providerMetadata: item.providerMetadata as ProviderMetadata };
}

function toMediaPart(file: { mediaType: string; data: string | Uint8Array }): ContentPart {
  if (typeof file.data !== 'string') {
    const type = file.mediaType.startsWith('image/') ? 'image' : 'file';
    return mediaPart({ type, mediaType: file.mediaType, bytes: file.data });
  }
  const data = file.data;
  return file.mediaType.startsWith('image/')
    ? { type: 'image', mediaType: file.mediaType, data }
    : { type: 'file', mediaType: file.mediaType, data };
}

/**
 * Converts the content of an AI SDK generate result into an assistant message: reasoning parts (with
 * their provider metadata) first, then text and generated files, and the tool calls; provider-executed
 * tool calls and their results stay out (the provider already ran them).
 *
 * @example
 * ```ts
 * const result = {
 *   content: [{ type: 'text' as const, text: 'Hello!' }],
 *   usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 },
 * };
 * const message = fromAiSdkContent(result.content, { usage: fromAiSdkUsage(result.usage), finishReason: 'stop' });
 * ```
 */
export function fromAiSdkContent(
  content: readonly AiSdkContent[],
  extra: Pick<AssistantMessage, 'usage' | 'finishReason' | 'providerMetadata' | 'modelId'>,
): AssistantMessage {
  const reasoning: ContentPart[] = [];
  const rest: ContentPart[] = [];
  const toolCalls: ToolCall[] = [];
  for (const item of content) {
    if (item.type === 'reasoning')
      reasoning.push({ type: 'reasoning', text: item.text, ...metadataOf(item) });
    else if (item.type === 'text') rest.push({ type: 'text', text: item.text });
    else if (item.type === 'file') rest.push(toMediaPart(item));
    else if (item.type === 'tool-call' && item.providerExecuted !== true) {
      toolCalls.push({
        id: item.toolCallId,
        name: item.toolName,
        arguments: item.input,
        ...metadataOf(item),
      });
    }
  }
  const onlyText = reasoning.length === 0 && rest.every((part) => part.type === 'text');
  const text = rest.map((part) => (part.type === 'text' ? part.text : '')).join('');
  return {
    role: 'assistant',
    content: onlyText ? text : [...reasoning, ...rest],
    ...(toolCalls.length === 0 ? {} : { toolCalls }),
    ...(extra.usage === undefined ? {} : { usage: extra.usage }),
    ...(extra.finishReason === undefined ? {} : { finishReason: extra.finishReason }),
    ...(extra.providerMetadata === undefined ? {} : { providerMetadata: extra.providerMetadata }),
    ...(extra.modelId === undefined ? {} : { modelId: extra.modelId }),
  };
}
