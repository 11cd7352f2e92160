import { isIP } from 'node:net';

/**
 * Who may call a UI-stream route, decided as every Weft listener decides it: a `Host` allow-list against
 * DNS rebinding, an `Origin` check against other web pages, JSON bodies only, and a capped body.
 *
 * @example
 * ```ts
 * const guard: GuardOptions = { allowedHosts: ['chat.example.com'], allowedOrigins: ['https://app.example.com'] };
 * ```
 */
export interface GuardOptions {
  /**
   * `Host` names answered besides the loopback ones (`localhost`, `*.localhost`, `127.0.0.1`, `[::1]`);
   * `'*'` answers any (only behind a proxy that checks it).
   */
  readonly allowedHosts?: readonly string[] | '*';
  /** Browser origins allowed besides the route's own origin (default: none). */
  readonly allowedOrigins?: readonly string[];
  /** Larger request bodies are refused with 413 (default 1 MiB). */
  readonly maxBodyBytes?: number;
}

/** The default body cap: 1 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/**
 * A refused request: the HTTP status to answer, a stable code and why.
 *
 * @example
 * ```ts
 * throw new Refusal(400, 'INVALID_BODY', 'the body is not JSON');
 * ```
 */
export class Refusal extends Error {
  /** Always `'Refusal'`. */
  override readonly name = 'Refusal';
  /** The HTTP status to answer with. */
  readonly status: number;
  /** A stable machine-readable code (`FORBIDDEN_HOST`, `CROSS_ORIGIN`, `BODY_TOO_LARGE`, …). */
  readonly code: string;

  /**
   * @param status the HTTP status to answer with
   * @param code a stable machine-readable code
   * @param message what was wrong, naming the header or field
   */
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }

  /** The refusal as a JSON response. */
  toResponse(): Response {
    return Response.json({ error: this.code, message: this.message }, { status: this.status });
  }
}

/**
 * Checks a write's `Host`, `Origin` (and `Sec-Fetch-Site` when no `Origin` is sent), method and JSON
 * content type, then reads its body within the cap and parses it.
 *
 * @throws Refusal 403 `FORBIDDEN_HOST` / `CROSS_ORIGIN`, 405 `METHOD_NOT_ALLOWED`, 415
 *   `UNSUPPORTED_MEDIA_TYPE`, 413 `BODY_TOO_LARGE`, 400 `INVALID_BODY`.
 * @example
 * ```ts
 * declare const request: Request;
 * const body = await readGuardedJson(request, { allowedHosts: ['chat.example.com'] });
 * ```
 */
export async function readGuardedJson(request: Request, options: GuardOptions = {}): Promise<unknown> {
  checkHostAndOrigin(request, options);
  if (request.method !== 'POST')
    throw new Refusal(405, 'METHOD_NOT_ALLOWED', `this route takes POST (got ${request.method})`);
  const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json')
    throw new Refusal(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      `send Content-Type: application/json (got ${type || 'none'})`,
    );
  const text = await readBody(request, options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Refusal(400, 'INVALID_BODY', 'the request body is not valid JSON');
  }
}

function checkHostAndOrigin(request: Request, options: GuardOptions): void {
  const hostHeader = request.headers.get('host') ?? new URL(request.url).host;
  const name = hostnameOf(hostHeader);
  if (name === undefined) throw new Refusal(403, 'FORBIDDEN_HOST', 'the request has no valid Host header');
  const hosts = options.allowedHosts;
  if (hosts !== '*' && !isLoopback(name) && !(hosts ?? []).map(bare).includes(name))
    throw new Refusal(403, 'FORBIDDEN_HOST', `Host "${hostHeader}" is not one this route answers to`);
  const origin = request.headers.get('origin');
  if (origin !== null && !sameOrigin(origin, hostHeader) && !(options.allowedOrigins ?? []).includes(origin))
    throw new Refusal(403, 'CROSS_ORIGIN', `requests from ${origin} are not allowed`);
  const site = request.headers.get('sec-fetch-site');
  if (origin === null && site !== null && site !== 'same-origin' && site !== 'none')
    throw new Refusal(403, 'CROSS_ORIGIN', `cross-site request refused (Sec-Fetch-Site: ${site})`);
}

async function readBody(request: Request, limit: number): Promise<string> {
  const tooLarge = () =>
    new Refusal(413, 'BODY_TOO_LARGE', `the request body is over the limit of ${limit} bytes`);
  if (Number(request.headers.get('content-length') ?? 0) > limit) throw tooLarge();
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
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
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

function hostnameOf(header: string): string | undefined {
  if (header === '' || /[\s/@?#\\]/.test(header)) return undefined;
  try {
    return bare(new URL(`http://${header}`).hostname);
  } catch {
    return undefined;
  }
}

function isLoopback(host: string): boolean {
  const name = bare(host);
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (isIP(name) === 4) return name.startsWith('127.');
  return name === '::1' || name === '::ffff:127.0.0.1';
}

function bare(host: string): string {
  const lower = host.trim().toLowerCase().replace(/\.$/, '');
  return lower.startsWith('[') && lower.endsWith(']') ? lower.slice(1, -1) : lower;
}
