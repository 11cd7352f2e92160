import type { SessionKey } from './session.js';

/**
 * Who a run is for: the session's app, user and session ids and, when the caller gave one, the tenant.
 * Tools read it as `context.run`, model adapters as the call option `run`, middleware as
 * `ctx.sessionKey` plus `ctx.tenantId`.
 *
 * @example
 * ```ts
 * const lookup = tool({
 *   name: 'orders',
 *   parameters: z.object({}),
 *   description: "The user's orders",
 *   execute: async (_args, context) => {
 *     const url = `https://orders.example/${context.run?.tenantId}/${context.run?.userId}`;
 *     return (await fetch(url, { signal: context.signal })).json();
 *   },
 * });
 * ```
 */
export interface RunIdentity extends SessionKey {
  readonly tenantId?: string;
}
