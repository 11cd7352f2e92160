import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

/**
 * Who may call a served agent, as every Weft listener decides it (the playground's and `serveMcp`'s
 * rules): a `Host` allow-list against DNS rebinding, an `Origin` check against other web pages, JSON for
 * every write, a capped body, and a bearer token — required beyond loopback.
 *
 * @example
 * ```ts
 * const guard: A2aGuardOptions = { allowedHosts: ['agents.example.com'], maxBodyBytes: 256 * 1024 };
 * ```
 */
export interface A2aGuardOptions {
  /**
   * `Host` names answered besides the loopback ones (`localhost`, `*.localhost`, `127.0.0.1`, `[::1]`);
   * `'*'` answers any (behind a proxy that checks it, with a token required).
   */
  readonly allowedHosts?: readonly string[] | '*';
  /** Browser origins allowed to call (default: none besides the server's own origin). */
  readonly allowedOrigins?: readonly string[];
  /** Larger request bodies are refused with 413 (default 1 MiB). */
  readonly maxBodyBytes?: number;
}

/**
 * How callers authenticate: one bearer `token`, or your own `authenticate` mapping a token to a
 * principal (its tasks are its own). With `required` (the default when the server binds beyond loopback)
 * every request but the agent card must present one; a wrong token is refused even when not required.
 *
 * @example
 * ```ts
 * const auth: A2aAuthOptions = { authenticate: (token) => (token === process.env.A2A_TOKEN ? 'ops' : undefined) };
 * ```
 */
export interface A2aAuthOptions {
  /** The token requests present as `Authorization: Bearer <token>` (at least 16 characters). */
  readonly token?: string;
  /** Maps a presented token to a principal (a user or client id), `undefined` to refuse it. */
  readonly authenticate?: (token: string) => string | undefined | Promise<string | undefined>;
  /**
   * Maps a whole request to a principal, `undefined` to refuse it (401): for callers authenticated by
   * other means than one bearer token (an API key header, a cookie), or by the app the handler is mounted
   * in (`@weft/server` passes the identity its auth hook gave). Takes precedence over `authenticate`
   * and `token`; the card declares the bearer scheme.
   */
  readonly authenticateRequest?: (request: Request) => string | undefined | Promise<string | undefined>;
  /** Whether a request without a token is refused (default: only when bound beyond loopback). */
  readonly required?: boolean;
}

/** A refused request: its HTTP status and why. */
export class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const reads = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Checks `Host`, `Origin` and, for writes, the JSON content type. */
export function checkRequest(request: Request, options: A2aGuardOptions): void {
  const hostHeader = request.headers.get('host') ?? new URL(request.url).host;
  const name = hostnameOf(hostHeader);
  if (name === undefined) throw new Refusal(403, 'FORBIDDEN_HOST', 'the request has no valid Host header');
  const hosts = options.allowedHosts;
  if (hosts !== '*' && !isLoopback(name) && !(hosts ?? []).map(bare).includes(name))
    throw new Refusal(403, 'FORBIDDEN_HOST', `Host "${hostHeader}" is not one this agent answers to`);
  const origin = request.headers.get('origin');
  if (origin !== null && !sameOrigin(origin, hostHeader) && !(options.allowedOrigins ?? []).includes(origin))
    throw new Refusal(403, 'CROSS_ORIGIN', `requests from ${origin} are not allowed`);
  const site = request.headers.get('sec-fetch-site');
  if (origin === null && site !== null && site !== 'same-origin' && site !== 'none')
    throw new Refusal(403, 'CROSS_ORIGIN', `cross-site request refused (Sec-Fetch-Site: ${site})`);
  if (!reads.has(request.method)) {
    const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/json')
      throw new Refusal(
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        `writes take Content-Type: application/json (got ${type || 'none'})`,
      );
  }
}

/**
 * Reads a request's body as text, refusing one over `limit` bytes (413) — a declared `Content-Length`
 * before reading, a chunked body at the first byte past the cap.
 */
export async function readBody(request: Request, limit: number): Promise<string> {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > limit) throw tooLarge(limit);
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function tooLarge(limit: number): Refusal {
  return new Refusal(413, 'BODY_TOO_LARGE', `the request body is over the limit of ${limit} bytes`);
}

/** The bearer token of a request, if it has one. */
export function bearerOf(request: Request): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '')?.[1];
}

/** Compares two tokens in constant time. */
export function sameToken(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

function sameOrigin(origin: string, host: string): boolean {
  try {
    const url = new URL(origin);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') && url.host.toLowerCase() === host.toLowerCase()
    );
  } catch {
    return false; // `null` (sandboxed frames, file:) and garbage never match
  }
}

/** The host name of a `Host` header, lowercased and without brackets; undefined when malformed. */
export function hostnameOf(header: string | undefined): string | undefined {
  if (header === undefined || header === '' || /[\s/@?#\\]/.test(header)) return undefined;
  try {
    return bare(new URL(`http://${header}`).hostname);
  } catch {
    return undefined;
  }
}

/**
 * Whether a name always means this machine: `localhost`, `*.localhost`, 127.0.0.0/8 and `::1` — no DNS
 * answer can make an attacker's page such a name.
 *
 * @example
 * ```ts
 * isLoopback('127.0.0.1'); // true
 * isLoopback('0.0.0.0'); // false
 * ```
 */
export function isLoopback(host: string): boolean {
  const name = bare(host);
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (isIP(name) === 4) return name.startsWith('127.');
  return name === '::1' || name === '::ffff:127.0.0.1';
}

function bare(host: string): string {
  const lower = host.trim().toLowerCase().replace(/\.$/, '');
  return lower.startsWith('[') && lower.endsWith(']') ? lower.slice(1, -1) : lower;
}
