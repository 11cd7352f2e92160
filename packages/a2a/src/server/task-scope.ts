import type { ServerCallContext, User } from '@a2a-js/sdk/server';

/** The owner of tasks created without credentials (every such caller shares one scope). */
export const ANONYMOUS = 'anonymous';

/**
 * A caller the server authenticated (by its bearer token): tasks and push configs are scoped to its
 * `userName`, as the SDK's own stores scope them.
 *
 * @example
 * ```ts
 * const user = new A2aPrincipal('alice');
 * console.log(user.isAuthenticated, user.userName); // true 'alice'
 * ```
 */
export class A2aPrincipal implements User {
  constructor(readonly userName: string) {}

  get isAuthenticated(): boolean {
    return true;
  }
}

/** Where a call's records live: its tenant and owner. */
export interface TaskScope {
  readonly tenant: string;
  readonly owner: string;
}

/** The tenant and owner of a call (the SDK's scoping: tenant, then the user's name). */
export function scopeOf(context: ServerCallContext): TaskScope {
  return { tenant: context.tenant ?? '', owner: context.user?.userName || ANONYMOUS };
}

/**
 * A namespace label for any string: store labels may not be empty or hold `.`, so every label is
 * percent-encoded (with `.` too) and the empty string is `%`.
 */
export function label(value: string): string {
  return value === '' ? '%' : encodeURIComponent(value).replace(/\./g, '%2E');
}
