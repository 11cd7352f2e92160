// Ported from langchain-ai/langgraphjs: libs/langgraph-core/src/tests/pregel.test.ts "should use a retry
// policy", and the default predicate of libs/langgraph-core/src/pregel/retry.ts (which errors and HTTP
// statuses a policy without `retryOn` refuses to retry). Issue 39, item 1.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryCheckpointer } from '../../src/checkpoint/memory-checkpointer.js';
import { defaultRetryOn, END, START, StateGraph } from '../../src/index.js';

/** An error as HTTP clients throw them: a `status`, or a `response.status`. */
function httpError(message: string, status: number, where: 'status' | 'response' = 'status'): Error {
  const error = new Error(message);
  Object.assign(error, where === 'status' ? { status } : { response: { status } });
  return error;
}

describe('the default retry policy (retry: {} without retryOn)', () => {
  it('retries a 5xx error and not a 400, on a checkpointed thread', async () => {
    let erroredOnce = false;
    let nonRetryable = 0;
    const app = new StateGraph(z.object({ total: z.number().default(0), input: z.number() }))
      .addNode('add', (s) => ({ total: s.input + s.total }))
      .addNode(
        'check',
        (s) => {
          if (s.total > 2 && !erroredOnce) {
            erroredOnce = true;
            throw httpError('I will be retried', 500);
          }
          if (s.total > 8) {
            nonRetryable += 1;
            throw httpError('Total is too large', 400);
          }
          return { total: s.total };
        },
        { retry: { initialDelayMs: 1, jitter: false } },
      )
      .addEdge(START, 'add')
      .addEdge('add', 'check')
      .addEdge('check', END)
      .compile({ checkpointer: new MemoryCheckpointer() });

    expect(await app.invoke({ input: 2 }, { threadId: '1' })).toEqual({ input: 2, total: 2 });
    expect(erroredOnce).toBe(false);
    expect(await app.invoke({ input: 3 }, { threadId: '1' })).toEqual({ input: 3, total: 5 });
    expect(erroredOnce).toBe(true);
    expect(nonRetryable).toBe(0);

    await expect(app.invoke({ input: 4 }, { threadId: '1' })).rejects.toMatchObject({
      node: 'check',
      cause: expect.objectContaining({ message: 'Total is too large' }),
    });
    expect(nonRetryable).toBe(1); // a 400 is not retried: one attempt
    const state = await app.getState('1');
    expect(state?.tasks).toEqual([
      expect.objectContaining({
        node: 'check',
        done: false,
        error: expect.objectContaining({ message: 'Total is too large' }),
      }),
    ]);
    expect(await app.invoke({ input: 5 }, { threadId: '2' })).toEqual({ input: 5, total: 5 });
  });

  it('refuses exactly what the reference refuses, and retries the rest', () => {
    for (const status of [400, 401, 402, 403, 404, 405, 406, 407, 409]) {
      expect(defaultRetryOn(httpError('client', status)), `status ${status}`).toBe(false);
      expect(defaultRetryOn(httpError('client', status, 'response')), `response.status ${status}`).toBe(
        false,
      );
    }
    expect(defaultRetryOn(httpError('as text', '404' as unknown as number))).toBe(false);
    for (const status of [408, 410, 422, 429, 500, 502, 503, 504]) {
      expect(defaultRetryOn(httpError('retried', status)), `status ${status}`).toBe(true);
    }
    expect(defaultRetryOn(new Error('socket hang up'))).toBe(true);
    expect(
      defaultRetryOn(Object.assign(new Error('timeout of 10ms exceeded'), { code: 'ECONNABORTED' })),
    ).toBe(false);
    expect(defaultRetryOn(Object.assign(new Error('ECONNRESET'), { code: 'ECONNRESET' }))).toBe(true);
    expect(defaultRetryOn(Object.assign(new Error('quota'), { error: { code: 'insufficient_quota' } }))).toBe(
      false,
    );
    expect(defaultRetryOn(Object.assign(new Error('rate'), { error: { code: 'rate_limit_exceeded' } }))).toBe(
      true,
    );
    expect(defaultRetryOn(Object.assign(new Error('stopped'), { name: 'AbortError' }))).toBe(false);
    expect(defaultRetryOn(new Error('Cancelled by the user'))).toBe(false);
    expect(defaultRetryOn(new Error('AbortError: the operation was aborted'))).toBe(false);
    expect(defaultRetryOn(Object.assign(new Error('no checkpointer'), { name: 'GraphValueError' }))).toBe(
      false,
    );
  });

  it('is what a node with retry: {} uses: a 403 fails at once, a 503 is tried again', async () => {
    const attempts: number[] = [];
    const app = (status: number) =>
      new StateGraph(z.object({ n: z.number() }))
        .addNode(
          'call',
          () => {
            attempts.push(status);
            throw httpError(`HTTP ${status}`, status);
          },
          { retry: { maxAttempts: 3, initialDelayMs: 0 } },
        )
        .addEdge(START, 'call')
        .addEdge('call', END)
        .compile();
    await expect(app(403).invoke({ n: 1 })).rejects.toMatchObject({ node: 'call', attempt: 1 });
    await expect(app(503).invoke({ n: 1 })).rejects.toMatchObject({ node: 'call', attempt: 3 });
    expect(attempts).toEqual([403, 503, 503, 503]);
  });

  it('does not apply when the policy gives its own retryOn', async () => {
    let calls = 0;
    const app = new StateGraph(z.object({ n: z.number() }))
      .addNode(
        'call',
        () => {
          calls += 1;
          throw httpError('HTTP 400', 400);
        },
        { retry: { maxAttempts: 2, initialDelayMs: 0, retryOn: () => true } },
      )
      .addEdge(START, 'call')
      .addEdge('call', END)
      .compile();
    await expect(app.invoke({ n: 1 })).rejects.toMatchObject({ attempt: 2 });
    expect(calls).toBe(2);
  });
});
