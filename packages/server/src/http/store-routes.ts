// /store: the long-term Store graphs see as `ctx.store`, for clients. With auth, a caller's namespaces
// start with their identity; the server's own records (`weft-server`) are never reachable.
import type { StoreItem, StoreValue } from '@weft/compose';
import type { Context } from 'hono';
import { WeftServerError } from '../errors/server-error.js';
import { RESERVED_LABEL } from '../records/records.js';
import { type Api, type ApiApp, type ApiEnv, ownerOf } from './api-context.js';
import { requirePermission } from './auth.js';
import { field, jsonBody } from './http-kit.js';

type C = Context<ApiEnv>;

/** Adds the store routes. */
export function storeRoutes(app: ApiApp, api: Api): void {
  const { store } = api.context;

  app.put('/store/items', async (c) => {
    requirePermission(c.get('user'), 'store', 'write');
    const input = await jsonBody(c, api.maxBodyBytes);
    const namespace = allowed(c, field.strings(input, 'namespace'), 'namespace');
    const key = field.string(input, 'key');
    if (key === undefined) throw new WeftServerError('INVALID_ARGUMENT', '"key" is required');
    const value = field.object(input, 'value');
    if (value === undefined) throw new WeftServerError('INVALID_ARGUMENT', '"value" must be an object');
    const index = input.index;
    const ttl = field.number(input, 'ttl');
    await store.put(namespace, key, value as StoreValue, {
      ...(index === false ? { index: false } : Array.isArray(index) ? { index: index as string[] } : {}),
      ...(ttl === undefined ? {} : { ttlMs: ttl * 60_000 }),
    });
    return c.body(null, 204);
  });

  app.get('/store/items', async (c) => {
    requirePermission(c.get('user'), 'store', 'read');
    const namespace = allowed(c, (c.req.query('namespace') ?? '').split('.').filter(Boolean), 'namespace');
    const key = c.req.query('key');
    if (!key) throw new WeftServerError('INVALID_ARGUMENT', '"key" is required');
    const item = await store.get(namespace, key);
    if (!item) throw new WeftServerError('NOT_FOUND', `no item "${key}" in namespace ${namespace.join('.')}`);
    return c.json(itemView(item));
  });

  app.delete('/store/items', async (c) => {
    requirePermission(c.get('user'), 'store', 'write');
    const input = await jsonBody(c, api.maxBodyBytes);
    const namespace = allowed(c, field.strings(input, 'namespace'), 'namespace');
    const key = field.string(input, 'key');
    if (key === undefined) throw new WeftServerError('INVALID_ARGUMENT', '"key" is required');
    await store.delete(namespace, key);
    return c.body(null, 204);
  });

  app.post('/store/items/search', async (c) => {
    requirePermission(c.get('user'), 'store', 'read');
    const input = await jsonBody(c, api.maxBodyBytes);
    const prefix = allowed(c, field.strings(input, 'namespace_prefix') ?? [], 'namespace_prefix');
    const filter = field.object(input, 'filter');
    const query = field.string(input, 'query');
    const items = await store.search(prefix, {
      limit: field.number(input, 'limit') ?? 10,
      offset: field.number(input, 'offset') ?? 0,
      ...(filter ? { filter } : {}),
      ...(query === undefined ? {} : { query }),
    });
    const visible =
      prefix.length === 0 ? items.filter((item) => item.namespace[0] !== RESERVED_LABEL) : items;
    return c.json({ items: visible.map(itemView) });
  });

  app.post('/store/namespaces', async (c) => {
    requirePermission(c.get('user'), 'store', 'read');
    const input = await jsonBody(c, api.maxBodyBytes);
    const prefix = allowed(c, field.strings(input, 'prefix') ?? [], 'prefix');
    const suffix = field.strings(input, 'suffix');
    const maxDepth = field.number(input, 'max_depth');
    const limit = field.number(input, 'limit') ?? 100;
    const offset = field.number(input, 'offset') ?? 0;
    const all = await store.list(prefix, {
      limit: 1_000_000,
      ...(maxDepth === undefined ? {} : { maxDepth }),
    });
    const namespaces = all
      .filter((namespace) => namespace[0] !== RESERVED_LABEL)
      .filter(
        (namespace) =>
          !suffix || suffix.every((label, i) => namespace[namespace.length - suffix.length + i] === label),
      );
    return c.json({ namespaces: namespaces.slice(offset, offset + limit) });
  });
}

/**
 * The namespace if the caller may use it: never the server's records; with auth, only those whose
 * first label is the caller's identity (an empty prefix is narrowed to it).
 */
function allowed(c: C, namespace: string[] | undefined, name: string): string[] {
  if (namespace === undefined) throw new WeftServerError('INVALID_ARGUMENT', `"${name}" is required`);
  const owner = ownerOf(c);
  if (namespace[0] === RESERVED_LABEL)
    throw new WeftServerError(
      'FORBIDDEN',
      `namespaces starting with "${RESERVED_LABEL}" are the server's own`,
    );
  if (owner === null) return namespace;
  if (namespace.length === 0) return [owner];
  if (namespace[0] !== owner)
    throw new WeftServerError(
      'FORBIDDEN',
      `${name} must start with your identity ("${owner}"), got "${namespace[0]}"`,
    );
  return namespace;
}

function itemView(item: StoreItem & { readonly score?: number }) {
  return {
    namespace: [...item.namespace],
    key: item.key,
    value: item.value,
    created_at: item.createdAt.toISOString(),
    updated_at: item.updatedAt.toISOString(),
    ...(item.score === undefined ? {} : { score: item.score }),
  };
}
