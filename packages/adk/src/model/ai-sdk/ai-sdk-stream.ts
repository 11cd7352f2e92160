import type { MessageChunk } from '../../message/message-chunk.js';
import type { AiSdkStreamPart } from './ai-sdk-types.js';
import { fromAiSdkFinishReason, fromAiSdkUsage, metadataOf } from './convert-ai-sdk-result.js';
import { toAiSdkError } from './to-ai-sdk-error.js';

/**
 * Turns AI SDK stream parts into message chunks. Reasoning and tool inputs are keyed by the AI SDK's
 * string ids; the converter gives each id an index, in order of appearance, as chunks key them.
 *
 * @example
 * ```ts
 * async function* toChunks(parts: AsyncIterable<AiSdkStreamPart>) {
 *   const convert = new AiSdkStreamConverter('openai:gpt-4o-mini');
 *   for await (const part of parts) {
 *     const chunk = convert.next(part);
 *     if (chunk) yield chunk;
 *   }
 * }
 * ```
 */
export class AiSdkStreamConverter {
  readonly #model: string;
  readonly #reasoning = new Map<string, number>();
  readonly #tools = new Map<string, number>();
  readonly #streamedInput = new Set<string>();

  constructor(model: string) {
    this.#model = model;
  }

  #index(ids: Map<string, number>, id: string): number {
    const known = ids.get(id);
    if (known !== undefined) return known;
    ids.set(id, ids.size);
    return ids.size - 1;
  }

  /**
   * The chunk for one part; `undefined` for parts that carry nothing for the message.
   *
   * @throws {ModelError} for an `error` part.
   */
  next(part: AiSdkStreamPart): MessageChunk | undefined {
    switch (part.type) {
      case 'text-delta':
        return part.delta === '' ? undefined : { text: part.delta };
      case 'reasoning-start':
      case 'reasoning-end':
        return part.providerMetadata === undefined
          ? undefined
          : { reasoningDeltas: [{ index: this.#index(this.#reasoning, part.id), ...metadataOf(part) }] };
      case 'reasoning-delta':
        return {
          reasoningDeltas: [
            { index: this.#index(this.#reasoning, part.id), text: part.delta, ...metadataOf(part) },
          ],
        };
      case 'tool-input-start':
        if (part.providerExecuted === true) return undefined;
        this.#streamedInput.add(part.id);
        return {
          toolCallDeltas: [{ index: this.#index(this.#tools, part.id), id: part.id, name: part.toolName }],
        };
      case 'tool-input-delta':
        if (!this.#tools.has(part.id)) return undefined;
        return { toolCallDeltas: [{ index: this.#index(this.#tools, part.id), arguments: part.delta }] };
      case 'tool-call': {
        if (part.providerExecuted === true) return undefined;
        const index = this.#index(this.#tools, part.toolCallId);
        if (this.#streamedInput.has(part.toolCallId)) {
          return part.providerMetadata === undefined
            ? undefined
            : { toolCallDeltas: [{ index, ...metadataOf(part) }] };
        }
        return {
          toolCallDeltas: [
            { index, id: part.toolCallId, name: part.toolName, arguments: part.input, ...metadataOf(part) },
          ],
        };
      }
      case 'response-metadata':
        return part.modelId ? { modelId: part.modelId } : undefined;
      case 'finish':
        return {
          usage: fromAiSdkUsage(part.usage),
          finishReason: fromAiSdkFinishReason(part.finishReason),
          ...metadataOf(part),
        };
      case 'error':
        throw toAiSdkError(part.error, this.#model, undefined);
      default:
        return undefined;
    }
  }
}

/**
 * Reads a web `ReadableStream` as an async iterable, cancelling it when the loop is left early.
 *
 * @example
 * ```ts
 * const stream = new ReadableStream<string>({
 *   start(controller) {
 *     controller.enqueue('Hel');
 *     controller.enqueue('lo');
 *     controller.close();
 *   },
 * });
 * for await (const part of readStream(stream)) process.stdout.write(part); // Hello
 * ```
 */
export async function* readStream<T>(stream: ReadableStream<T>): AsyncGenerator<T> {
  const reader = stream.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      yield value;
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
