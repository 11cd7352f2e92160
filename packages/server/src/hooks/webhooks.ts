// Completion webhooks: when a run with a `webhook` ends, its record (status, values, error, times) is
// POSTed there, signed with the server's secret, retried with exponential backoff — in the background,
// so a slow or failing receiver never holds up the run, its thread or its clients.
import { createHmac } from 'node:crypto';
import type { JsonValue } from '@weft/compose';
import { publicView, type RunRecord } from '../records/record-types.js';
import type { ServerContext } from '../runs/server-context.js';

/**
 * Webhook settings: the signing secret, which hosts may receive, and the retry schedule. Without them a
 * run's `webhook` is refused (a server that POSTs wherever a caller says is an SSRF hole).
 *
 * @example
 * ```ts
 * const webhooks: WebhookOptions = { secret: process.env.WEBHOOK_SECRET ?? 'dev-secret-0123456789', allowedHosts: ['hooks.example.com'] };
 * ```
 */
export interface WebhookOptions {
  /**
   * Signs each delivery: header `x-weft-signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`
   * (at least 16 characters).
   */
  readonly secret: string;
  /** Host names (`host` or `host:port`) webhooks may be sent to; absent: any. */
  readonly allowedHosts?: readonly string[];
  /** Deliveries tried before giving up (default 5). */
  readonly maxAttempts?: number;
  /** First retry delay; each next one doubles (default 1000 ms). */
  readonly backoffMs?: number;
}

/** The signature header of a webhook body sent at `time` (unix seconds). */
export function webhookSignature(secret: string, body: string, time: number): string {
  return `t=${time},v1=${createHmac('sha256', secret).update(`${time}.${body}`).digest('hex')}`;
}

/** Sends webhooks in the background; `close()` stops retrying. */
export class WebhookSender {
  readonly #options: WebhookOptions;
  readonly #context: ServerContext;
  readonly #pending = new Set<NodeJS.Timeout>();
  #closed = false;

  constructor(context: ServerContext, options: WebhookOptions) {
    this.#context = context;
    this.#options = options;
  }

  /** Whether the server may send to `url`. */
  allows(url: URL): boolean {
    const hosts = this.#options.allowedHosts;
    return hosts === undefined || hosts.includes(url.host) || hosts.includes(url.hostname);
  }

  /** Queues the delivery of a run's end (returns at once). */
  send(run: RunRecord, values: JsonValue, error: string | null): void {
    const url = run.kwargs.webhook;
    if (url === null) return;
    const body = JSON.stringify({
      ...publicView(run),
      values,
      ...(error === null ? {} : { error }),
      run_ended_at: run.updated_at,
      webhook_sent_at: new Date().toISOString(),
    });
    this.#attempt(url, body, run.run_id, 1);
  }

  #attempt(url: string, body: string, runId: string, attempt: number): void {
    if (this.#closed) return;
    const time = Math.floor(Date.now() / 1000);
    void fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-weft-signature': webhookSignature(this.#options.secret, body, time),
      },
      body,
      redirect: 'error',
      signal: AbortSignal.timeout(30_000),
    })
      .then((response) => {
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        this.#context.log('info', 'webhook delivered', { run_id: runId, attempt });
      })
      .catch((error: unknown) => {
        const max = this.#options.maxAttempts ?? 5;
        const reason = error instanceof Error ? error.message : String(error);
        if (attempt >= max) {
          this.#context.log('warn', 'webhook given up', { run_id: runId, attempts: attempt, error: reason });
          return;
        }
        const delay = (this.#options.backoffMs ?? 1000) * 2 ** (attempt - 1);
        const timer = setTimeout(() => {
          this.#pending.delete(timer);
          this.#attempt(url, body, runId, attempt + 1);
        }, delay);
        this.#pending.add(timer);
      });
  }

  close(): void {
    this.#closed = true;
    for (const timer of this.#pending) clearTimeout(timer);
  }
}
