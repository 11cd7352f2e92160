import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

/**
 * Who may call the server, as every Weft listener decides it: a `Host` allow-list against DNS rebinding,
 * an `Origin` check against other web pages (CORS opens it to the origins you name), JSON for every write
 * that has a body, and a capped body.
 *
 * @example
 * ```ts
 * const guard: GuardOptions = { allowedHosts: ['agents.example.com'], allowedOrigins: ['https://app.example.com'] };
 * ```
 */
export interface GuardOptions {
  /**
   * `Host` names answered besides the loopback ones (`localhost`, `*.localhost`, `127.0.0.1`, `[::1]`);
   * `'*'` answers any (behind a proxy that checks it, with auth required).
   */
  readonly allowedHosts?: readonly string[] | '*';
  /** Browser origins allowed to call, CORS included (default: none besides the server's own origin). */
  readonly allowedOrigins?: readonly string[];
  /** Larger request bodies are refused with 413 (default 1 MiB). */
  readonly maxBodyBytes?: number;
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
export function checkRequest(request: Request, options: GuardOptions): void {
  const hostHeader = request.headers.get('host') ?? new URL(request.url).host;
  const name = hostnameOf(hostHeader);
  if (name === undefined) throw new Refusal(403, 'FORBIDDEN_HOST', 'the request has no valid Host header');
  const hosts = options.allowedHosts;
  if (hosts !== '*' && !isLoopback(name) && !(hosts ?? []).map(bare).includes(name))
    throw new Refusal(403, 'FORBIDDEN_HOST', `Host "${hostHeader}" is not one this server answers to`);
  const origin = request.headers.get('origin');
  if (origin !== null && !sameOrigin(origin, hostHeader) && !(options.allowedOrigins ?? []).includes(origin))
    throw new Refusal(403, 'CROSS_ORIGIN', `requests from ${origin} are not allowed`);
  const site = request.headers.get('sec-fetch-site');
  if (origin === null && site !== null && site !== 'same-origin' && site !== 'none')
    throw new Refusal(403, 'CROSS_ORIGIN', `cross-site request refused (Sec-Fetch-Site: ${site})`);
  const sized = request.headers.get('content-length');
  const hasBody = (sized !== null && sized !== '0') || request.headers.has('transfer-encoding');
  if (!reads.has(request.method) && hasBody) {
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
