export {
  type AnthropicServerOptions,
  type AnthropicServerReply,
  startAnthropicServer,
} from './anthropic-server.js';
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
