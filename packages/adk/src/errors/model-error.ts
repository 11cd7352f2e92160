import { AdkError } from './adk-error.js';

/**
 * Options of the {@link ModelError} constructor.
 *
 * @example
 * ```ts
 * throw new ModelError('rate limited', { status: 429, retryable: true, retryAfterMs: 1_000 });
 * ```
 */
export interface ModelErrorOptions {
  /** HTTP status of the failed request; absent for network failures. */
  readonly status?: number;
  /** Whether trying again may succeed (429, 5xx, network failures). */
  readonly retryable: boolean;
  /** How long the server asked to wait before trying again (`retry-after`), in milliseconds. */
  readonly retryAfterMs?: number;
  /** The original error. */
  readonly cause?: unknown;
}

/**
 * A chat model request failed. `retryable` tells {@link withRetry} whether to try again.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel
 * const messages = [userMessage('Hi')];
 * try {
 *   await model.generate(messages);
 * } catch (error) {
 *   if (error instanceof ModelError && error.status === 429) console.log('rate limited');
 * }
 * ```
 */
export class ModelError extends AdkError {
  /** HTTP status of the failed request; `undefined` for network failures. */
  readonly status: number | undefined;
  /** Whether trying again may succeed. */
  readonly retryable: boolean;
  /** How long the server asked to wait before trying again, in milliseconds. */
  readonly retryAfterMs: number | undefined;

  constructor(message: string, options: ModelErrorOptions) {
    super('MODEL_ERROR', message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ModelError';
    this.status = options.status;
    this.retryable = options.retryable;
    this.retryAfterMs = options.retryAfterMs;
  }
}
