/**
 * How long a server asked to wait before trying again, from `retry-after-ms` or `retry-after`
 * (seconds or an HTTP date); `undefined` when it did not say. Shared by the SDK adapters.
 *
 * @example
 * ```ts
 * retryAfterMs(new Headers({ 'retry-after': '2' })); // 2000
 * ```
 */
export function retryAfterMs(headers: Headers | undefined): number | undefined {
  const milliseconds = Number(headers?.get('retry-after-ms') ?? Number.NaN);
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const value = headers?.get('retry-after');
  if (value === undefined || value === null) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/**
 * True for HTTP statuses worth retrying: 408, 409, 429 and 5xx (Anthropic's 529 "overloaded" included).
 *
 * @example
 * ```ts
 * isRetryableStatus(529); // true
 * ```
 */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}
