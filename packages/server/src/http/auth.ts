// Who is calling: the auth hook's answer, and the permission each route needs.
import { WeftServerError } from '../errors/server-error.js';

/**
 * A caller the auth hook accepted: their identity (the owner of what they create) and what they may do.
 *
 * @example
 * ```ts
 * const user: AuthUser = { identity: 'user-1', permissions: ['threads:write', 'threads:read'] };
 * ```
 */
export interface AuthUser {
  readonly identity: string;
  /**
   * What the caller may do: `<resource>:<read|write>` for `assistants`, `threads` (runs included), `store`
   * and `crons`, or `*`. Absent: everything.
   */
  readonly permissions?: readonly string[];
}

/**
 * The auth hook: verify a request's credentials (a bearer token, a JWT, an API key in `x-api-key`, which
 * the SDK sends for `apiKey`) and return the user, or `undefined` to refuse it with 401. With a hook,
 * every route but the health, readiness and OpenAPI ones needs a user, and each user sees only what they
 * created (others' threads, runs, assistants and store items are answered as not found).
 *
 * @example
 * ```ts
 * const auth: ServerAuth = {
 *   authenticate: async (request) => {
 *     const token = request.headers.get('authorization')?.replace(/^Bearer /, '');
 *     return token === process.env.ALICE_TOKEN ? { identity: 'alice' } : undefined;
 *   },
 * };
 * ```
 */
export interface ServerAuth {
  authenticate(request: Request): AuthUser | undefined | Promise<AuthUser | undefined>;
}

/** The resources permissions name. */
export type Resource = 'assistants' | 'threads' | 'store' | 'crons';

/** Throws `FORBIDDEN` unless `user` may `access` `resource` (no user: auth is off, anything goes). */
export function requirePermission(
  user: AuthUser | undefined,
  resource: Resource,
  access: 'read' | 'write',
): void {
  const permissions = user?.permissions;
  if (permissions === undefined) return;
  if (permissions.includes('*') || permissions.includes(`${resource}:${access}`)) return;
  throw new WeftServerError('FORBIDDEN', `this caller lacks the "${resource}:${access}" permission`);
}
