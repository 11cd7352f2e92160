import { abortError } from '@weft/compose';
import { describe, expect, it } from 'vitest';
import { AdkError } from './adk-error.js';
import { ModelError } from './model-error.js';
import { ToolError } from './tool-error.js';

describe('AdkError', () => {
  it('carries a code, a message and a cause', () => {
    const cause = new Error('socket closed');
    const error = new AdkError('MODEL_ERROR', 'request failed', { cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe('MODEL_ERROR');
    expect(error.message).toBe('request failed');
    expect(error.cause).toBe(cause);
    expect(error.name).toBe('AdkError');
  });

  it('is recognised by isInstance through its marker, also from another copy of the package', () => {
    const foreign = Object.assign(new Error('x'), { [Symbol.for('weft.adk.error')]: true, code: 'ABORTED' });
    expect(AdkError.isInstance(foreign)).toBe(true);
    expect(AdkError.isInstance(new Error('plain'))).toBe(false);
    expect(AdkError.isInstance({ code: 'ABORTED' })).toBe(false);
    expect(AdkError.isInstance(null)).toBe(false);
  });

  it('carries the shared Weft marker that WeftError.isInstance checks', () => {
    const error = abortError('stop');
    expect((error as unknown as Record<symbol, unknown>)[Symbol.for('weft.error')]).toBe(true);
  });

  it('does not take other Weft errors (with codes of another union) for adk errors', () => {
    const composeError = Object.assign(new Error('x'), {
      [Symbol.for('weft.error')]: true,
      code: 'STEP_LIMIT',
    });
    expect(AdkError.isInstance(composeError)).toBe(false);
  });
});

describe('ModelError and ToolError', () => {
  it('add their fields and keep the base behaviour', () => {
    const modelError = new ModelError('rate limited', { status: 429, retryable: true, retryAfterMs: 1000 });
    expect(AdkError.isInstance(modelError)).toBe(true);
    expect(modelError).toMatchObject({
      code: 'MODEL_ERROR',
      status: 429,
      retryable: true,
      retryAfterMs: 1000,
    });
    expect(modelError.name).toBe('ModelError');

    const toolError = new ToolError('TOOL_TIMEOUT', 'too slow', { tool: 'search', toolCallId: 'call_1' });
    expect(toolError).toBeInstanceOf(AdkError);
    expect(toolError).toMatchObject({ code: 'TOOL_TIMEOUT', tool: 'search', toolCallId: 'call_1' });
  });
});
