import { WeftError } from '@weft/compose';
import { expect, expectTypeOf, test } from 'vitest';
import { WorkerError, type WorkerErrorCode } from './worker-error.js';

test('a worker error is a WeftError whose code is typed by its own family', () => {
  const error = new WorkerError('LEASE_LOST', 'lost', { retryAfterMs: 5 });
  expect(error).toBeInstanceOf(WeftError);
  expect(WeftError.isInstance(error)).toBe(true);
  expect(WorkerError.isInstance(error)).toBe(true);
  expect(WorkerError.isInstance(new WeftError('NOT_FOUND', 'x'))).toBe(false);
  expect(error).toMatchObject({ code: 'LEASE_LOST', retryAfterMs: 5, name: 'WorkerError' });
  const caught: unknown = error;
  if (WorkerError.isInstance(caught)) expectTypeOf(caught.code).toEqualTypeOf<WorkerErrorCode>();
});
