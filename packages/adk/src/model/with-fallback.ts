import { isAbortError } from '../internal/abort.js';
import type { AssistantMessage, Message } from '../message/message.js';
import type { MessageChunk } from '../message/message-chunk.js';
import type { ChatModel, ChatModelCallOptions } from './chat-model.js';

/**
 * Options of {@link withFallback}.
 *
 * @example
 * ```ts
 * const options: FallbackOptions = { shouldFallback: (error) => error instanceof ModelError };
 * ```
 */
export interface FallbackOptions {
  /** Which failures of the first model switch to the fallback (default: every error but an abort). */
  readonly shouldFallback?: (error: unknown) => boolean;
}

/**
 * Wraps a model so that a failed call is answered by `fallbackModel` instead. Aborts are never handed
 * on. A stream falls back only if the first model fails before its first chunk; later failures are
 * rethrown, since part of its answer was already passed on. Combine with {@link withRetry} to retry
 * first: `withFallback(withRetry(primary), fallback)`.
 *
 * @throws the fallback model's error when both fail, or the first model's when it should not fall back.
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const primary = new ScriptedChatModel([new Error('overloaded')], { name: 'primary' });
 * const cheaperModel = new ScriptedChatModel(['Hello!'], { name: 'cheaper' });
 * const model = withFallback(withRetry(primary), cheaperModel);
 * const reply = await model.generate([userMessage('Hi')]);
 * ```
 */
export function withFallback(
  model: ChatModel,
  fallbackModel: ChatModel,
  options: FallbackOptions = {},
): ChatModel {
  const shouldFallback = (error: unknown, signal: AbortSignal | undefined): boolean =>
    signal?.aborted !== true && !isAbortError(error) && (options.shouldFallback?.(error) ?? true);
  return {
    name: `${model.name} (fallback: ${fallbackModel.name})`,
    // Traces name the model asked first; the reply's `modelId` says which one answered.
    ...(model.provider === undefined ? {} : { provider: model.provider }),
    ...(model.modelId === undefined ? {} : { modelId: model.modelId }),
    async generate(
      messages: readonly Message[],
      callOptions?: ChatModelCallOptions,
    ): Promise<AssistantMessage> {
      try {
        return await model.generate(messages, callOptions);
      } catch (error) {
        if (!shouldFallback(error, callOptions?.signal)) throw error;
        return fallbackModel.generate(messages, callOptions);
      }
    },
    async *stream(
      messages: readonly Message[],
      callOptions?: ChatModelCallOptions,
    ): AsyncIterable<MessageChunk> {
      let started = false;
      try {
        for await (const chunk of model.stream(messages, callOptions)) {
          started = true;
          yield chunk;
        }
        return;
      } catch (error) {
        if (started || !shouldFallback(error, callOptions?.signal)) throw error;
      }
      yield* fallbackModel.stream(messages, callOptions);
    },
  };
}
