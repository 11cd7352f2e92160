import { describe, expect, it } from 'vitest';
import { redactedError, redactSecrets, registerSecret } from './redact-secrets.js';
import { WeftError } from './weft-error.js';

describe('redactSecrets', () => {
  it('redacts provider keys, bearer tokens and credential fields, and leaves ordinary text alone', () => {
    expect(redactSecrets('Incorrect API key provided: sk-proj-abcdefghijklmnopqrstuvwx.')).toBe(
      'Incorrect API key provided: [REDACTED].',
    );
    expect(redactSecrets('x-api-key sk-ant-api03-abcdefghijklmnop1234')).toBe('x-api-key [REDACTED]');
    expect(redactSecrets('key=AIzaSyA1234567890abcdefghijklmnopqrstu')).toBe('key=[REDACTED]');
    expect(redactSecrets('Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig')).toContain('[REDACTED]');
    expect(redactSecrets('Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig')).not.toContain('eyJ');
    expect(redactSecrets('{"api_key":"hunter2hunter2","model":"gpt-4o"}')).toBe(
      '{"api_key":"[REDACTED]","model":"gpt-4o"}',
    );
    expect(redactSecrets('GET /v1?token=abcdef123456&page=2')).toBe('GET /v1?token=[REDACTED]&page=2');
    const plain = 'node "model" failed at step 1: max_tokens=4096 exceeded, password authentication failed';
    expect(redactSecrets(plain)).toBe(plain);
  });

  it('redacts registered secrets and the extra values given, whatever their shape', () => {
    registerSecret('db-pass-7f3e9a1c');
    registerSecret('short');
    expect(redactSecrets('connect failed with db-pass-7f3e9a1c; short stays')).toBe(
      'connect failed with [REDACTED]; short stays',
    );
    expect(redactSecrets('webhook 123456789 refused', ['123456789'])).toBe('webhook [REDACTED] refused');
  });

  it('every Weft error is made with a redacted message; redactedError copies a leaky plain error', () => {
    const error = new WeftError('NODE_FAILED', 'upstream said: invalid key sk-abcdefghijklmnopqrstu');
    expect(error.message).toBe('upstream said: invalid key [REDACTED]');
    expect(error.stack).not.toContain('sk-abcdefghijklmnopqrstu');
    const plain = new TypeError('bad token sk-abcdefghijklmnopqrstu');
    const safe = redactedError(plain);
    expect(safe).toBeInstanceOf(TypeError);
    expect([safe.name, safe.message]).toEqual(['TypeError', 'bad token [REDACTED]']);
    expect(safe.stack).not.toContain('sk-abcdefghijklmnopqrstu');
    const clean = new Error('nothing to hide');
    expect(redactedError(clean)).toBe(clean);
  });
});
