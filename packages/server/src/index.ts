/**
 * `@weft/server` — Weft graphs served over the LangGraph API (the Agent Protocol the
 * `@langchain/langgraph-sdk` client speaks): assistants, threads, runs (streamed, waited for, in the
 * background), resumable streams, double texting, the Store, and an auth hook with per-user isolation;
 * and every graph over the Agent2Agent protocol too (`/a2a/<graph id>/`).
 *
 * @packageDocumentation
 */

export type { ServerA2aOptions } from './a2a/a2a-mount.js';
export { type CliIo, loadEntry, runServeCli, serveUsage } from './cli/serve-cli.js';
export { createServer, type ServerOptions, type WeftServer } from './create-server.js';
export { type ServerErrorCode, WeftServerError } from './errors/server-error.js';
export type { CronClock } from './hooks/cron-scheduler.js';
export { type WebhookOptions, webhookSignature } from './hooks/webhooks.js';
export type { AuthUser, ServerAuth } from './http/auth.js';
export type { GuardOptions } from './http/request-guard.js';
export type { ServedGraph } from './runs/server-context.js';
export { type ServedServer, type ServeOptions, serve } from './serve.js';
