import type { Store } from '@weft/compose';
import type { A2aCardOptions } from './agent-card.js';
import type { A2aAuthOptions, A2aGuardOptions } from './request-guard.js';
import type { PushUrlPolicy } from './store-push-store.js';
import type { A2aTarget } from './target.js';

/**
 * Options of `createA2aHandler`: what to serve (an `agent`, a `runner` or a `graph`) and how.
 *
 * @example
 * ```ts
 * import { MemoryStore } from '@weft/compose';
 * declare const agent: import('@weft/adk').Agent;
 * const options: A2aHandlerOptions = { agent, taskStore: new MemoryStore(), pushNotifications: true };
 * ```
 */
export type A2aHandlerOptions = A2aTarget & {
  /**
   * Where tasks and push configs live (default: in memory). Give the same store, session service and
   * checkpointer to a restarted server and it continues every task (a SQLite file, a PostgreSQL schema).
   */
  readonly taskStore?: Store;
  /** What the agent card says beyond what is derived (version, provider, skills…). */
  readonly card?: A2aCardOptions;
  /**
   * The public URL of the agent (its JSON-RPC endpoint; the card is under it at
   * `/.well-known/agent-card.json`). Default: each request's own URL (its `Host`, which the guard checks).
   */
  readonly url?: string;
  /**
   * Push notifications (webhooks a client registers per task): on by default; `allowUrl` decides which
   * webhook URLs are accepted (default: `http(s)` to hosts that are not this machine or a private
   * network by name), `timeoutMs` bounds each delivery (default 5 s).
   */
  readonly pushNotifications?: boolean | { readonly allowUrl?: PushUrlPolicy; readonly timeoutMs?: number };
  /** Bearer tokens: one `token`, or `authenticate` mapping a token to a principal (see {@link A2aAuthOptions}). */
  readonly auth?: A2aAuthOptions;
  /**
   * Host, Origin, JSON and body checks (see {@link A2aGuardOptions}); `false` when the app the handler is
   * mounted in applies the same checks to it (the playground does).
   */
  readonly guard?: A2aGuardOptions | false;
};
