import { ModelError } from '../errors/model-error.js';
import { abortError, isAbortError, sleep } from '../internal/abort.js';
import type { AssistantMessage, Message } from '../message/message.js';
import type { MessageChunk } from '../message/message-chunk.js';
import type { ChatModel, ChatModelCallOptions } from './chat-model.js';
import { isRetryableError } from './is-retryable-error.js';

/**
 * Options of {@link withRetry}.
 *
 * @example
 * ```ts
 * const options: RetryOptions = { maxAttempts: 5, initialDelayMs: 200, maxDelayMs: 5_000, jitter: 0.5 };
 * ```
 */
export interface RetryOptions {
  /** Attempts in total, the first included (default 3). */
  readonly maxAttempts?: number;
  /** Wait before the second attempt; doubles after each failure (default 500 ms). */
  readonly initialDelayMs?: number;
  /** Upper bound of a wait, also of a server's `retry-after` (default 10 000 ms). */
  readonly maxDelayMs?: number;
  /** Fraction of each wait that is randomised, 0 to 1 (default 0.2): waits are `delay × (1 − jitter × random)`. */
  readonly jitter?: number;
  /** Which errors to retry (default {@link isRetryableError}). Aborts are never retried. */
  readonly isRetryable?: (error: unknown) => boolean;
  /** Called before each wait, with the failed attempt (1-based), its error and the wait. */
  readonly onRetry?: (event: {
    readonly attempt: number;
    readonly error: unknown;
    readonly delayMs: number;
  }) => void;
}

interface RetryPolicy {
  readonly maxAttempts: number;
  delayFor(attempt: number, error: unknown): number;
  shouldRetry(attempt: number, error: unknown, signal: AbortSignal | undefined): boolean;
  readonly onRetry: RetryOptions['onRetry'];
}

function retryPolicy(options: RetryOptions): RetryPolicy {
  const maxAttempts = Math.max(1, options.maxAttempts ?? 3);
  const initialDelayMs = options.initialDelayMs ?? 500;
  const maxDelayMs = options.maxDelayMs ?? 10_000;
  const jitter = Math.min(1, Math.max(0, options.jitter ?? 0.2));
  const isRetryable = options.isRetryable ?? isRetryableError;
  return {
    maxAttempts,
    onRetry: options.onRetry,
    delayFor(attempt, error) {
      const backoff = initialDelayMs * 2 ** (attempt - 1) * (1 - jitter * Math.random());
      const asked = error instanceof ModelError ? (error.retryAfterMs ?? 0) : 0;
      return Math.min(maxDelayMs, Math.max(backoff, asked));
    },
    shouldRetry(attempt, error, signal) {
      if (attempt >= maxAttempts || signal?.aborted === true || isAbortError(error)) return false;
      return isRetryable(error);
    },
  };
}

async function waitBeforeRetry(policy: RetryPolicy, attempt: number, error: unknown, signal?: AbortSignal) {
  const delayMs = policy.delayFor(attempt, error);
  policy.onRetry?.({ attempt, error, delayMs });
  await sleep(delayMs, signal);
}

/** The error to report: once the call was aborted, an `ABORTED` error whatever the model threw. */
function finalError(error: unknown, signal: AbortSignal | undefined): unknown {
  return signal?.aborted === true && !isAbortError(error) ? abortError(signal) : error;
}

/**
 * Wraps a model so failed calls are tried again with exponential backoff and jitter: by default 429,
 * 5xx and network errors, up to 3 attempts. Waits honour the call's abort signal, and aborts are never
 * retried. A stream is retried only if it fails before its first chunk; once chunks were passed on, the
 * error is rethrown (the consumer already saw part of an answer).
 *
 * @throws the last error when attempts run out or it is not retryable; `ABORTED` when aborted.
 * @example
 * ```ts
 * const model = withRetry(new OpenAIChatModel({ model: 'gpt-4o-mini' }), { maxAttempts: 4 });
 * const reply = await model.generate([userMessage('Hi')]);
 * ```
 */
export function withRetry(model: ChatModel, options: RetryOptions = {}): ChatModel {
  const policy = retryPolicy(options);
  return {
    name: model.name,
    ...(model.provider === undefined ? {} : { provider: model.provider }),
    ...(model.modelId === undefined ? {} : { modelId: model.modelId }),
    async generate(
      messages: readonly Message[],
      callOptions?: ChatModelCallOptions,
    ): Promise<AssistantMessage> {
      const signal = callOptions?.signal;
      for (let attempt = 1; ; attempt++) {
        try {
          return await model.generate(messages, callOptions);
        } catch (error) {
          if (!policy.shouldRetry(attempt, error, signal)) throw finalError(error, signal);
          await waitBeforeRetry(policy, attempt, error, signal);
        }
      }
    },
    async *stream(
      messages: readonly Message[],
      callOptions?: ChatModelCallOptions,
    ): AsyncIterable<MessageChunk> {
      const signal = callOptions?.signal;
      for (let attempt = 1; ; attempt++) {
        let started = false;
        try {
          for await (const chunk of model.stream(messages, callOptions)) {
            started = true;
            yield chunk;
          }
          return;
        } catch (error) {
          if (started || !policy.shouldRetry(attempt, error, signal)) {
            throw finalError(error, signal);
          }
          await waitBeforeRetry(policy, attempt, error, signal);
        }
      }
    },
  };
}
