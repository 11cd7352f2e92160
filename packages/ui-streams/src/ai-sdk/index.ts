/**
 * `@weft/ui-streams/ai-sdk` — for apps whose chat UI is built on the Vercel AI SDK: serve a Weft agent
 * (its `Runner`) as the route `useChat` from `@ai-sdk/react` posts to (`aiSdkHandler`), its runs written
 * in the AI SDK's UI message stream protocol — text, reasoning, tool calls and results, tool approval
 * answered by resuming the paused run, custom data parts. `ai` is an optional peer: only its types are
 * used.
 *
 * @example
 * ```ts
 * declare const runner: import('@weft/adk').Runner;
 * import { serve } from '@hono/node-server';
 * import { aiSdkHandler } from '@weft/ui-streams/ai-sdk';
 * serve({ fetch: aiSdkHandler(runner), port: 3000 }); // useChat({ transport: new DefaultChatTransport({ api: 'http://localhost:3000' }) })
 * ```
 * @module
 */

export {
  DEFAULT_MAX_BODY_BYTES,
  type GuardOptions,
  Refusal,
  readGuardedJson,
} from '../http/request-guard.js';
export { approvalId, parseApprovalId } from '../interrupts/approval-id.js';
export { type AiSdkHandlerOptions, aiSdkHandler, type ChatRunner } from './ai-sdk-handler.js';
export { type ChatTurn, parseChatRequest } from './chat-request.js';
export { toUIMessageChunks, type UIMessageChunkOptions } from './ui-message-chunks.js';
export { UI_MESSAGE_STREAM_HEADERS, uiMessageStreamResponse } from './ui-message-stream-response.js';
