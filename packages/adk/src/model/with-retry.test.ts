import { abortError } from '@weft/compose';
import { describe, expect, it } from 'vitest';
import { AdkError } from '../errors/adk-error.js';
import { ModelError } from '../errors/model-error.js';
import type { MessageChunk } from '../message/message-chunk.js';
import { userMessage } from '../message/message-constructors.js';
import { ScriptedChatModel } from '../testing/scripted-chat-model.js';
import type { ChatModel } from './chat-model.js';
import { isRetryableError } from './is-retryable-error.js';
import { withRetry } from './with-retry.js';

const fast = { initialDelayMs: 1, maxDelayMs: 2, jitter: 0 };
const rateLimited = () => new ModelError('429', { status: 429, retryable: true });

async function collectText(stream: AsyncIterable<MessageChunk>): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += chunk.text ?? '';
  return text;
}

describe('withRetry', () => {
  it('retries retryable failures and returns the first success', async () => {
    const inner = new ScriptedChatModel([
      rateLimited(),
      new ModelError('503', { status: 503, retryable: true }),
      'ok',
    ]);
    const retries: number[] = [];
    const model = withRetry(inner, { ...fast, onRetry: ({ attempt }) => retries.push(attempt) });
    await expect(model.generate([userMessage('hi')])).resolves.toMatchObject({ content: 'ok' });
    expect(inner.calls).toHaveLength(3);
    expect(retries).toEqual([1, 2]);
    expect(model.name).toBe(inner.name);
  });

  it('gives up after maxAttempts with the last error', async () => {
    const last = new ModelError('still down', { status: 500, retryable: true });
    const inner = new ScriptedChatModel([rateLimited(), last, 'never reached']);
    await expect(withRetry(inner, { ...fast, maxAttempts: 2 }).generate([])).rejects.toBe(last);
    expect(inner.calls).toHaveLength(2);
  });

  it('does not retry errors that are not retryable', async () => {
    const badRequest = new ModelError('400', { status: 400, retryable: false });
    const inner = new ScriptedChatModel([badRequest, 'ok']);
    await expect(withRetry(inner, fast).generate([])).rejects.toBe(badRequest);
    expect(inner.calls).toHaveLength(1);
  });

  it('uses a custom isRetryable rule', async () => {
    const inner = new ScriptedChatModel([new Error('flaky'), 'ok']);
    const model = withRetry(inner, { ...fast, isRetryable: (error) => (error as Error).message === 'flaky' });
    await expect(model.generate([])).resolves.toMatchObject({ content: 'ok' });
  });

  it('never retries an abort, and stops waiting when the signal fires', async () => {
    const aborted = abortError('stop');
    const inner = new ScriptedChatModel([aborted, 'ok']);
    await expect(withRetry(inner, { ...fast, isRetryable: () => true }).generate([])).rejects.toBe(aborted);
    expect(inner.calls).toHaveLength(1);

    const controller = new AbortController();
    const slow = withRetry(new ScriptedChatModel([rateLimited(), 'ok']), {
      initialDelayMs: 60_000,
      maxDelayMs: 60_000,
      onRetry: () => controller.abort(),
    });
    await expect(slow.generate([], { signal: controller.signal })).rejects.toMatchObject({ code: 'ABORTED' });
  });

  it('retries a stream that fails before its first chunk', async () => {
    const inner = new ScriptedChatModel([rateLimited(), 'streamed text']);
    await expect(collectText(withRetry(inner, fast).stream([]))).resolves.toBe('streamed text');
    expect(inner.calls).toHaveLength(2);
  });

  it('does not retry a stream that fails after chunks were passed on', async () => {
    let calls = 0;
    const failing: ChatModel = {
      name: 'half',
      generate: () => Promise.reject(new Error('unused')),
      async *stream() {
        calls++;
        yield { text: 'partial ' };
        throw rateLimited();
      },
    };
    await expect(collectText(withRetry(failing, fast).stream([]))).rejects.toMatchObject({ status: 429 });
    expect(calls).toBe(1);
  });
});

describe('isRetryableError', () => {
  it('follows ModelError.retryable, HTTP statuses and network codes, and rejects aborts', () => {
    expect(isRetryableError(rateLimited())).toBe(true);
    expect(isRetryableError(new ModelError('x', { status: 400, retryable: false }))).toBe(false);
    expect(isRetryableError(Object.assign(new Error('x'), { status: 502 }))).toBe(true);
    expect(isRetryableError(Object.assign(new Error('x'), { status: 404 }))).toBe(false);
    expect(isRetryableError(new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } }))).toBe(true);
    expect(isRetryableError(abortError('x'))).toBe(false);
    expect(isRetryableError(new AdkError('INVALID_ARGUMENT', 'x'))).toBe(false);
    expect(isRetryableError(new DOMException('stop', 'AbortError'))).toBe(false);
    expect(isRetryableError(new Error('logic bug'))).toBe(false);
  });
});
