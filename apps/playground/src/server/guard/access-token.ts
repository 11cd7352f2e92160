import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';

/**
 * A fresh random access token (32 bytes, hex): what `weft dev` requires, like Jupyter's, when it binds
 * an interface other than loopback.
 *
 * @example
 * ```ts
 * const token = newAccessToken(); // 64 hex characters, different on every start
 * ```
 */
export function newAccessToken(): string {
  return randomBytes(32).toString('hex');
}

/**
 * The cookie that carries the token for the web app, one per port (cookies ignore ports, and two
 * playgrounds on one machine must not overwrite each other's).
 *
 * @example
 * ```ts
 * tokenCookieName('localhost:4317'); // 'weft-token-4317'
 * ```
 */
export function tokenCookieName(hostHeader: string | undefined): string {
  const port = /:(\d+)$/.exec(hostHeader ?? '')?.[1] ?? '80';
  return `weft-token-${port}`;
}

/** Where a request presented the token, if it presented the right one. */
export type TokenSource = 'header' | 'cookie' | 'query';

/**
 * Checks the token a request presents: `Authorization: Bearer <token>`, the per-port cookie the web
 * app got, or `?token=` (the link `weft dev` prints). Compared in constant time.
 *
 * @example
 * ```ts
 * if (!presentedToken(c, token)) throw new HttpError(401, 'TOKEN_REQUIRED', '…');
 * ```
 */
export function presentedToken(c: Context, token: string): TokenSource | undefined {
  const header = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
  if (header !== undefined && sameToken(header, token)) return 'header';
  const cookie = getCookie(c, tokenCookieName(c.req.header('host')));
  if (cookie !== undefined && sameToken(cookie, token)) return 'cookie';
  const query = c.req.query('token');
  if (query !== undefined && sameToken(query, token)) return 'query';
  return undefined;
}

function sameToken(given: string, token: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(token));
}
