import type { MiddlewareHandler } from 'hono';
import { bodyLimit as honoBodyLimit } from 'hono/body-limit';
import { HttpError } from '../http-error.ts';

/** The default cap on a request body: 10 MB. */
export const defaultMaxBodyBytes = 10 * 1024 * 1024;

/**
 * Caps request bodies at `maxBytes` (413 `BODY_TOO_LARGE`). A declared `Content-Length` over the cap is
 * refused before anything is read; a chunked body is counted while it streams in and refused at the
 * first byte past the cap, so no more than `maxBytes` is ever held in memory.
 *
 * @throws HttpError 413 `BODY_TOO_LARGE`.
 * @example
 * ```ts
 * app.use('/api/*', bodyLimit(1024 * 1024));
 * ```
 */
export function bodyLimit(maxBytes: number = defaultMaxBodyBytes): MiddlewareHandler {
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0)
    throw new RangeError(`maxBodyBytes must be a non-negative integer, got ${maxBytes}`);
  return honoBodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new HttpError(413, 'BODY_TOO_LARGE', `the request body is over the ${describe(maxBytes)} limit`);
    },
  });
}

function describe(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MB`;
  return bytes >= 1024 && bytes % 1024 === 0 ? `${bytes / 1024} KB` : `${bytes} bytes`;
}
