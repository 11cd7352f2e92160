import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** The biggest request body the counting server reads. */
const MAX_BODY = 16 * 1024;

/**
 * A loopback stand-in for an external API that honours idempotency keys (a payment or email
 * provider): each POST carries an `Idempotency-Key`; the first request of a key is applied (a new id),
 * a repeated one answers the same id without applying it again. It counts requests and applications per
 * key. Only requests whose `Host` is its own address are served, bodies are capped, and browser
 * requests (an `Origin` header) are refused.
 *
 * @example
 * ```ts
 * const server = await CountingServer.start();
 * const post = () =>
 *   fetch(`${server.url}/charges`, { method: 'POST', headers: { 'idempotency-key': 'weft-1' }, body: '{}' });
 * await post();
 * await post(); // a repeat: answered with the same id, not applied again
 * server.requests.get('/charges weft-1'); // 2
 * server.applied.size; // 1
 * await server.close();
 * ```
 */
export class CountingServer {
  /** Requests per idempotency key. */
  readonly requests = new Map<string, number>();
  /** The id each key was applied as, in application order (at most once per key). */
  readonly applied = new Map<string, string>();
  /** The `order` field each key's first request carried (which run sent it). */
  readonly threads = new Map<string, string>();
  readonly #server: Server;
  #host = '';

  private constructor() {
    this.#server = createServer((request, response) => void this.#handle(request, response));
  }

  /** Starts one on 127.0.0.1 on a free port. */
  static async start(): Promise<CountingServer> {
    const server = new CountingServer();
    server.#server.listen(0, '127.0.0.1');
    await once(server.#server, 'listening');
    const address = server.#server.address();
    if (address === null || typeof address === 'string') throw new Error('the counting server has no port');
    server.#host = `127.0.0.1:${address.port}`;
    return server;
  }

  /** Its base URL. */
  get url(): string {
    return `http://${this.#host}`;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    this.#server.close();
    await once(this.#server, 'close');
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const reply = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.headers.host !== this.#host) return reply(421, { error: 'unknown host' });
    if (request.headers.origin !== undefined) return reply(403, { error: 'no browser requests' });
    if (request.method !== 'POST') return reply(405, { error: 'POST only' });
    const key = request.headers['idempotency-key'];
    if (typeof key !== 'string' || key === '') return reply(400, { error: 'Idempotency-Key required' });
    let size = 0;
    const chunks: Buffer[] = [];
    for await (const chunk of request) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY) return reply(413, { error: 'body too large' });
      chunks.push(chunk as Buffer);
    }
    const id = `${request.url} ${key}`;
    const body = JSON.parse(Buffer.concat(chunks).toString() || '{}') as { order?: unknown };
    if (!this.threads.has(id)) this.threads.set(id, String(body.order));
    this.requests.set(id, (this.requests.get(id) ?? 0) + 1);
    let applied = this.applied.get(id);
    if (applied === undefined) {
      applied = `${request.url === '/charges' ? 'ch' : 'em'}_${this.applied.size + 1}`;
      this.applied.set(id, applied);
    }
    return reply(200, { id: applied });
  }
}
