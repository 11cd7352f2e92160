/**
 * `@weft/ui-streams/ag-ui` — for apps whose frontend speaks AG-UI (`HttpAgent` from `@ag-ui/client`,
 * CopilotKit): serve a Weft agent (its `Runner`) as an AG-UI endpoint (`agUiHandler`), its runs written as
 * `@ag-ui/core` events — run lifecycle, text messages, tool calls and results, state snapshot and deltas,
 * custom events, and pauses as the `interrupt` outcome answered by `resume` entries.
 *
 * @example
 * ```ts
 * declare const runner: import('@weft/adk').Runner;
 * import { serve } from '@hono/node-server';
 * import { agUiHandler } from '@weft/ui-streams/ag-ui';
 * serve({ fetch: agUiHandler(runner), port: 3000 }); // new HttpAgent({ url: 'http://localhost:3000' })
 * ```
 * @module
 */

export {
  DEFAULT_MAX_BODY_BYTES,
  type GuardOptions,
  Refusal,
  readGuardedJson,
} from '../http/request-guard.js';
export { type AgUiRunOptions, toAgUiEvents } from './ag-ui-events.js';
export { type AgUiHandlerOptions, type AgUiRunner, agUiEventResponse, agUiHandler } from './ag-ui-handler.js';
export { type AgUiTurn, parseAgUiRequest } from './ag-ui-request.js';
