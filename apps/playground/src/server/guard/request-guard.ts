import type { Context, MiddlewareHandler } from 'hono';
import { setCookie } from 'hono/cookie';
import { HttpError } from '../http-error.ts';
import { presentedToken, tokenCookieName } from './access-token.ts';
import { bare, hostnameOf, isLoopback, isWildcard } from './host-names.ts';

/** What {@link requestGuard} lets through. */
export interface GuardOptions {
  /** The interface the server binds: a name it may be reached by (besides the loopback names). */
  readonly host: string;
  /** More `Host` names to accept (e.g. the machine's name on the LAN). */
  readonly allowedHosts?: readonly string[] | undefined;
  /** The access token every request must present; undefined: none (loopback only). */
  readonly token?: string | undefined;
  /**
   * Requests answered without the token (like Jupyter's, a loopback playground's page shell): reading
   * the page and its static files and `GET /api/graphs`, so a start check can see it serve. Default:
   * none. Everything else still needs the token.
   */
  readonly openWithoutToken?: ((method: string, path: string) => boolean) | undefined;
}

/**
 * What a loopback playground answers without its token: the page shell and its static files (no data)
 * and the list of graphs — what `scripts/check-start.mjs` reads to see it serve.
 *
 * @example
 * ```ts
 * loopbackShell('GET', '/'); // true
 * loopbackShell('GET', '/api/threads'); // false: needs the token
 * ```
 */
export function loopbackShell(method: string, path: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  if (path === '/api/graphs') return true;
  return !(path === '/api' || path.startsWith('/api/') || path.startsWith('/a2a'));
}

const reads = new Set(['GET', 'HEAD', 'OPTIONS']);
const sameSiteFetches = new Set(['same-origin', 'none']);

/**
 * The playground's front door, for a server that drives code on the user's machine and has no login:
 *
 * 1. `Host` must be a loopback name, the bound host or one of `allowedHosts` (403 `FORBIDDEN_HOST`), so
 *    a page that re-points its own DNS name at 127.0.0.1 (DNS rebinding) is refused. A server bound to
 *    every interface (`0.0.0.0`) skips this check: the token below guards it.
 * 2. With a `token`, every request presents it (401 `TOKEN_REQUIRED`) but those `openWithoutToken`
 *    allows; `/?token=…` stores it in a per-port `HttpOnly`, `SameSite=Strict` cookie and redirects to
 *    the bare URL, so the token leaves the address bar and the history.
 * 3. API calls, and every write, must come from the playground's own origin: an `Origin` of another
 *    site, or `Sec-Fetch-Site: cross-site`/`same-site`, is refused (403 `CROSS_ORIGIN`). Pages stay
 *    reachable by links from other sites.
 * 4. Every write (`POST`, `PUT`, `PATCH`, `DELETE`) is `application/json` (415
 *    `UNSUPPORTED_MEDIA_TYPE`): a cross-site form or `no-cors` fetch can only send `text/plain`,
 *    form data or multipart, so this alone stops them even in browsers that omit `Origin`.
 *
 * @throws HttpError as listed (the app's error handler answers with JSON).
 * @example
 * ```ts
 * app.use('*', requestGuard({ host: '127.0.0.1' }));
 * ```
 */
export function requestGuard(options: GuardOptions): MiddlewareHandler {
  const allowed = new Set([bare(options.host), ...(options.allowedHosts ?? []).map(bare)]);
  const anyHost = isWildcard(options.host);
  return async (c, next) => {
    const api = c.req.path.startsWith('/api/') || c.req.path === '/api';
    checkHost(c, anyHost, allowed);
    if (options.token !== undefined) {
      const source = presentedToken(c, options.token);
      if (source === undefined && !options.openWithoutToken?.(c.req.method, c.req.path))
        return refuseWithoutToken(c, api);
      if (source === 'query' && !api && reads.has(c.req.method))
        return storeTokenAndRedirect(c, options.token);
    }
    const write = !reads.has(c.req.method);
    if (api || write) checkSameOrigin(c);
    if (write) checkJson(c);
    await next();
    return undefined;
  };
}

function checkHost(c: Context, anyHost: boolean, allowed: ReadonlySet<string>): void {
  const header = c.req.header('host');
  const name = hostnameOf(header);
  if (name === undefined) throw new HttpError(403, 'FORBIDDEN_HOST', 'the request has no valid Host header');
  if (anyHost || isLoopback(name) || allowed.has(name)) return;
  throw new HttpError(
    403,
    'FORBIDDEN_HOST',
    `Host "${header}" is not this playground's: use http://localhost or the bound host, or start weft dev with --allow-host ${name}`,
  );
}

function checkSameOrigin(c: Context): void {
  const fetchSite = c.req.header('sec-fetch-site');
  if (fetchSite !== undefined && !sameSiteFetches.has(fetchSite.toLowerCase()))
    throw new HttpError(403, 'CROSS_ORIGIN', `cross-origin request refused (Sec-Fetch-Site: ${fetchSite})`);
  const origin = c.req.header('origin');
  if (origin === undefined) return;
  if (originHost(origin) !== c.req.header('host')?.toLowerCase())
    throw new HttpError(403, 'CROSS_ORIGIN', `cross-origin request refused (Origin: ${origin})`);
}

function originHost(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.host.toLowerCase() : undefined;
  } catch {
    return undefined; // `null` (sandboxed frames, file:) and garbage never match
  }
}

function checkJson(c: Context): void {
  const type = c.req.header('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (type === 'application/json') return;
  throw new HttpError(
    415,
    'UNSUPPORTED_MEDIA_TYPE',
    `writes take Content-Type: application/json (got ${type === undefined || type === '' ? 'none' : type})`,
  );
}

function refuseWithoutToken(c: Context, api: boolean): Response {
  const message =
    'this playground needs its access token: open the link weft dev printed (…/?token=…), or send Authorization: Bearer <token>';
  if (api) throw new HttpError(401, 'TOKEN_REQUIRED', message);
  return c.html(`<!doctype html><title>weft dev</title><p>${message.replace(/</g, '&lt;')}</p>`, 401);
}

function storeTokenAndRedirect(c: Context, token: string): Response {
  setCookie(c, tokenCookieName(c.req.header('host')), token, {
    httpOnly: true,
    sameSite: 'Strict',
    path: '/',
  });
  const url = new URL(c.req.url);
  url.searchParams.delete('token');
  return c.redirect(`${url.pathname}${url.search}`, 302);
}
