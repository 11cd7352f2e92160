/**
 * `@weft/adk/testing` — for tests, offline demos and examples: `ScriptedChatModel` (replays scripted
 * answers, streams them, records calls), `drain` for a Runner's events, and loopback HTTP servers that
 * speak OpenAI's chat completions and Responses formats and Anthropic's Messages format, so adapters are
 * tested through their real SDK clients. It imports nothing from vitest (checked by
 * `vitest-free.test.ts`), so it can run in a script or the playground; the conformance suites that
 * declare vitest tests are on `@weft/adk/testing/conformance`.
 *
 * @packageDocumentation
 */
export {
  type AnthropicServerOptions,
  type AnthropicServerReply,
  startAnthropicServer,
} from './anthropic-server.js';
export { runArtifactWriterChild, WRITER_SESSION } from './artifact-writer-child.js';
export { drain } from './drain.js';
export {
  type LoopbackAnswer,
  type LoopbackError,
  type LoopbackServer,
  pieces,
  startLoopbackServer,
} from './loopback-http.js';
export type { ServerReply, ServerToolCall } from './openai-compatible-replies.js';
export {
  type OpenAICompatibleServer,
  type OpenAICompatibleServerOptions,
  type RecordedRequest,
  type ServerScript,
  startOpenAICompatibleServer,
} from './openai-compatible-server.js';
export {
  type ResponsesServerOptions,
  type ResponsesServerReply,
  startOpenAIResponsesServer,
} from './openai-responses-server.js';
export {
  type ScriptedCall,
  ScriptedChatModel,
  type ScriptedChatModelOptions,
  type ScriptFunction,
} from './scripted-chat-model.js';
export type { ScriptedResponse, ScriptedToolCall, ScriptedTurn } from './scripted-response.js';
