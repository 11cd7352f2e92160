import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import { TaskPushNotificationConfig } from '@a2a-js/sdk';
import { RequestMalformedError } from '@a2a-js/sdk/errors';
import type {
  PushNotificationStore,
  ServerCallContext,
  StoredPushNotificationConfig,
} from '@a2a-js/sdk/server';
import type { JsonValue, Store, StoreValue } from '@weft/compose';
import { label, scopeOf } from './task-scope.js';

/** A push config as the store keeps it, with the wire version it was registered over. */
interface PushRecord {
  readonly config: JsonValue;
  readonly wireVersion: string;
}

/**
 * Decides which webhook URLs a client may register for push notifications. The default refuses URLs
 * that are not `http:`/`https:` and hosts that name this machine or a private network by their literal
 * address or name (`localhost`, `127.0.0.1`, `10.…`, `192.168.…`, `[::1]`, …): a client must not make the
 * server post to services only the server can reach. Allow them deliberately (tests, a local receiver).
 *
 * @example
 * ```ts
 * const allowUrl: PushUrlPolicy = (url) => url.hostname === 'hooks.example.com';
 * ```
 */
export type PushUrlPolicy = (url: URL) => boolean;

/**
 * The SDK's `PushNotificationStore` on a Weft {@link Store}: each task's webhook configs are documents
 * under `['a2a-push', <server>, <tenant>, <owner>, <task>]`, kept with the protocol version each was
 * registered over (so a v0.3 client's webhook keeps receiving v0.3 bodies). Every URL passes `allowUrl`
 * first; a refused one is an `InvalidParams` error naming it.
 *
 * @example
 * ```ts
 * import { MemoryStore } from '@weft/compose';
 * const pushConfigs = new StorePushNotificationStore(new MemoryStore(), 'assistant');
 * ```
 */
export class StorePushNotificationStore implements PushNotificationStore {
  constructor(
    private readonly store: Store,
    private readonly server: string,
    private readonly allowUrl: PushUrlPolicy = publicWebhook,
  ) {}

  #namespace(taskId: string, context: ServerCallContext): string[] {
    const scope = scopeOf(context);
    return ['a2a-push', label(this.server), label(scope.tenant), label(scope.owner), label(taskId)];
  }

  async save(taskId: string, context: ServerCallContext, config: TaskPushNotificationConfig): Promise<void> {
    checkUrl(config.url, this.allowUrl);
    // The SDK reads the id the store gives an id-less config from the object it passed in.
    if (!config.id) config.id = randomUUID();
    const record: PushRecord = {
      config: TaskPushNotificationConfig.toJSON(config) as JsonValue,
      wireVersion: context.requestedVersion || '0.3',
    };
    await this.store.put(this.#namespace(taskId, context), config.id, record as unknown as StoreValue, {
      index: false,
    });
  }

  async load(taskId: string, context: ServerCallContext): Promise<TaskPushNotificationConfig[]> {
    return (await this.loadWithMetadata(taskId, context)).map((entry) => entry.config);
  }

  async loadWithMetadata(
    taskId: string,
    context: ServerCallContext,
  ): Promise<StoredPushNotificationConfig[]> {
    const hits = await this.store.search(this.#namespace(taskId, context), { limit: 100 });
    return hits
      .map((hit) => hit.value as unknown as PushRecord)
      .map((record) => ({
        config: TaskPushNotificationConfig.fromJSON(record.config),
        wireVersion: record.wireVersion,
      }));
  }

  async delete(taskId: string, context: ServerCallContext, configId?: string): Promise<void> {
    await this.store.delete(this.#namespace(taskId, context), configId ?? taskId);
  }
}

function checkUrl(raw: string, allowUrl: PushUrlPolicy): void {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RequestMalformedError(`push notification url "${raw}" is not a URL`);
  }
  if (!allowUrl(url))
    throw new RequestMalformedError(`push notification url "${raw}" is not allowed by this server`);
}

/**
 * The default {@link PushUrlPolicy}: `http:` or `https:` to a host that is not this machine or a private
 * network by its literal name or address.
 *
 * @example
 * ```ts
 * publicWebhook(new URL('https://hooks.example.com/a2a')); // true
 * publicWebhook(new URL('http://127.0.0.1:8080/hook')); // false
 * ```
 */
export function publicWebhook(url: URL): boolean {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.internal')) return false;
  const kind = isIP(host);
  if (kind === 4) return !privateV4(host);
  if (kind === 6) return !privateV6(host);
  return true;
}

function privateV4(address: string): boolean {
  const [a = 0, b = 0] = address.split('.').map(Number);
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168)
  );
}

function privateV6(address: string): boolean {
  if (address === '::' || address === '::1') return true;
  if (address.startsWith('::ffff:')) return privateV4(address.slice(7)) || !address.includes('.');
  return /^(fc|fd|fe8|fe9|fea|feb)/.test(address);
}
