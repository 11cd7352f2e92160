import { describe, expect, test } from 'vitest';
import { BackendError } from './backend-error.js';
import { bounded, hostFree } from './bounded-operation.js';

const where = { path: 'a.txt', virtual: '/a.txt' };

describe('bounded', () => {
  test('a stuck operation fails with TIMEOUT and its own signal fires', async () => {
    let inner: AbortSignal | undefined;
    const stuck = bounded({ ...where, timeoutMs: 1 }, (signal) => {
      inner = signal;
      return new Promise<never>(() => {});
    });
    await expect(stuck).rejects.toMatchObject({ reason: 'TIMEOUT', code: 'TOOL_TIMEOUT' });
    expect(inner?.aborted).toBe(true);
  });

  test('the caller signal wins over a stuck operation', async () => {
    const controller = new AbortController();
    const stuck = bounded(
      { ...where, signal: controller.signal, timeoutMs: Number.POSITIVE_INFINITY },
      () => new Promise<never>(() => {}),
    );
    controller.abort(new Error('user cancelled'));
    await expect(stuck).rejects.toMatchObject({ reason: 'ABORTED', code: 'ABORTED' });
  });

  test('a finished operation returns its value', async () => {
    expect(await bounded({ ...where, timeoutMs: 1_000 }, async () => 42)).toBe(42);
  });
});

describe('hostFree', () => {
  test('replaces a Node message naming a host path by one naming the virtual path', () => {
    const raw = Object.assign(new Error("ENAMETOOLONG: name too long, open '/srv/root/nnn'"), {
      code: 'ENAMETOOLONG',
    });
    const error = hostFree(raw, where.path, where.virtual);
    expect(error).toBeInstanceOf(BackendError);
    expect(error.reason).toBe('INVALID_PATH');
    expect(error.message).toBe('"/a.txt" has a name that is too long');
    expect(error.cause).toBe(raw);
    const odd = hostFree(
      Object.assign(new Error('/srv/root: EIO'), { code: 'EIO' }),
      where.path,
      where.virtual,
    );
    expect(odd.message).toBe('the filesystem failed on "/a.txt" (EIO)');
  });
});
